import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PlatformCode } from '../errors/index.js';
import { applyFault, type HeldSet, type TimerSet } from './apply-fault.js';
import { handleControl } from './handle-control.js';
import { handleE1 } from './handle-e1.js';
import { handleE2 } from './handle-e2.js';
import { handleE3 } from './handle-e3.js';
import { handleLoginPage } from './handle-login-page.js';
import { handleWebRoute } from './handle-web-route.js';
import { sendJson, type Exchange } from './http-io.js';
import { messageFor, type PlatformRoute } from './platform-reply.js';
import { classify, type Route } from './route.js';
import type { EmulatorContext } from './context.js';
import type { EndpointName } from './types.js';

function isPlatformRoute(endpoint: EndpointName): endpoint is PlatformRoute {
  return endpoint === 'E1' || endpoint === 'E2' || endpoint === 'E3' || endpoint === 'web';
}

function toUrl(raw: string | undefined): URL {
  try {
    return new URL(`http://emulator.invalid${raw?.startsWith('/') ? raw : '/'}`);
  } catch {
    return new URL('http://emulator.invalid/');
  }
}

async function answer(x: Exchange, ctx: EmulatorContext, route: Route): Promise<void> {
  const gameId = route.gameId ?? '';
  switch (route.endpoint) {
    case 'E1': return handleE1(x, ctx);
    case 'E2': return handleE2(x, ctx, gameId);
    case 'E3': return handleE3(x, ctx, gameId);
    case 'web': return handleWebRoute(x, ctx, gameId);
    case 'control': return handleControl(x, ctx);
    case 'login-page': return handleLoginPage(x, ctx);
    default: return sendJson(x, 404, { message: 'not found' });
  }
}

function guarded(x: Exchange, ctx: EmulatorContext, route: Route): void {
  answer(x, ctx, route).catch(() => {
    // An emulator bug must still produce an answer, never a hung request or a crash.
    if (x.res.headersSent) x.res.destroy();
    else sendJson(x, 500, { code: PlatformCode.UNKNOWN_ERROR, message: messageFor(PlatformCode.UNKNOWN_ERROR) });
  });
}

/** The emulator's request listener: log, pick a fault, answer. */
export function createDispatcher(ctx: EmulatorContext, pending: { timers: TimerSet; held: HeldSet }): (req: IncomingMessage, res: ServerResponse) => void {
  const socketUses = new WeakMap<Socket, number>();
  return (req, res) => {
    const uses = (socketUses.get(req.socket) ?? 0) + 1;
    socketUses.set(req.socket, uses);
    const url = toUrl(req.url);
    const route = classify(url);
    const x: Exchange = { req, res, url, entry: ctx.log.start(req, url, route.endpoint, ctx.clock.now()) };
    if (route.method && req.method !== route.method && !(route.method === 'GET' && req.method === 'HEAD')) {
      return sendJson(x, 405, { message: 'method not allowed' }, { allow: route.method });
    }
    const platform = isPlatformRoute(route.endpoint) ? route.endpoint : null;
    const fault = platform ? ctx.faults.take(platform, uses > 1) : undefined;
    if (platform && fault) applyFault(x, ctx, fault, platform, () => guarded(x, ctx, route), pending);
    else guarded(x, ctx, route);
  };
}
