import { isLosslessNumber } from 'lossless-json';
import { EmulatorInputError } from './errors.js';
import { parseJsonObject, readBody, sendJson, type Exchange } from './http-io.js';
import * as ops from './operations.js';
import { USER_TOKEN_LIFETIME_MS } from './user-token-store.js';
import type { EmulatorContext } from './context.js';
import type { FaultSpec } from './fault-queue.js';
import type { EndpointName } from './types.js';

type Body = Record<string, unknown>;
type Action = (ctx: EmulatorContext, body: Body, x: Exchange) => Record<string, unknown>;

const ENDPOINTS = new Set<EndpointName>(['E1', 'E2', 'E3', 'web', 'control', 'login-page', 'unknown']);

/** LosslessNumber -> number, except identifiers (kept exact as digit strings). */
function plain(v: unknown, key: string): unknown {
  if (!isLosslessNumber(v)) return v;
  return key === 'member_no' ? v.value : Number(v.value);
}

function plainObject(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || isLosslessNumber(v)) return plain(v, '');
  return Object.fromEntries(Object.entries(v).map(([k, val]) => [k, plain(val, k)]));
}

/** Fault specs for JSON: `count: Infinity` is written as -1. */
const faultsJson = (faults: FaultSpec[]): unknown[] => faults.map((f) => ({ ...f, count: f.count === Infinity ? -1 : f.count }));

const ACTIONS: Record<string, Action> = {
  'POST /_emulator/login': (ctx, b) => ({ ...ops.login(ctx, b.member_no, b.game_id) }),
  'POST /_emulator/refresh': (ctx, b) => ({ ...ops.refresh(ctx, b.refresh_token) }),
  'POST /_emulator/logout': (ctx, b) => (ops.logout(ctx, b.access_token), { ok: true }),
  'POST /_emulator/web-token': (ctx, b) => ({
    web_token: ops.issueWebToken(ctx, b.member_no),
    expires_in: USER_TOKEN_LIFETIME_MS / 1000,
    cookie_name: ctx.options.webCookieName,
  }),
  'POST /_emulator/clock': (ctx, b) => ({ now: ctx.clock.advance(b.advance_ms as number) }),
  'GET /_emulator/clock': (ctx) => ({ now: ctx.clock.now() }),
  'POST /_emulator/faults': (ctx, b) => {
    const list = Array.isArray(b.faults) ? b.faults : [b];
    list.map(plainObject).forEach((f) => ctx.faults.add(f));
    return { pending: faultsJson(ctx.faults.pending()) };
  },
  'GET /_emulator/faults': (ctx) => ({ pending: faultsJson(ctx.faults.pending()) }),
  'DELETE /_emulator/faults': (ctx) => ({ cleared: ctx.faults.clear() }),
  'GET /_emulator/requests': (ctx, _b, x) => {
    const endpoint = x.url.searchParams.get('endpoint');
    if (endpoint !== null && !ENDPOINTS.has(endpoint as EndpointName)) {
      throw new EmulatorInputError(`endpoint must be one of ${[...ENDPOINTS].join(', ')}`);
    }
    return { requests: ctx.log.list(endpoint === null ? {} : { endpoint: endpoint as EndpointName }) };
  },
  'DELETE /_emulator/requests': (ctx) => (ctx.log.clear(), { ok: true }),
  'GET /_emulator/health': (ctx) => ({
    ok: true,
    now: ctx.clock.now(),
    environment: ctx.options.environment,
    identifiers: ctx.options.identifiers,
    errorStatus: ctx.options.errorStatus,
  }),
};

/** `application/json`, with or without parameters (`; charset=utf-8`). */
function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

/**
 * The test-control API under `/_emulator/` (never part of the real platform). Bad input: HTTP 400
 * `{"error": "..."}`; unknown route: 404; a POST whose body is not `application/json`: 415.
 */
export async function handleControl(x: Exchange, ctx: EmulatorContext): Promise<void> {
  const key = `${x.req.method ?? 'GET'} ${x.url.pathname}`;
  const action = ACTIONS[key];
  const text = await readBody(x.req);
  if (!action) return sendJson(x, 404, { error: `no control route ${key}` });
  let body: Body = {};
  if (x.req.method === 'POST') {
    // JSON only: a cross-site page can send text/plain or a form without a preflight, not JSON.
    if (!isJson(x.req.headers['content-type'])) return sendJson(x, 415, { error: 'control routes take application/json' });
    const parsed = parseJsonObject(text);
    if (!parsed) return sendJson(x, 400, { error: text === null ? 'body is too large' : 'body must be a JSON object' });
    body = plainObject(parsed) as Body;
    if (Array.isArray(parsed.faults)) body.faults = parsed.faults;
  }
  try {
    sendJson(x, 200, action(ctx, body, x));
  } catch (err) {
    if (!(err instanceof EmulatorInputError)) throw err;
    sendJson(x, 400, { error: err.message });
  }
}
