import type { IncomingMessage } from 'node:http';
import { watchLeave, type Leavable, type LeaveWatch } from '../adapters/index.js';

/** The parts of a gateway's client (a Socket.IO socket) the guard reads and writes. */
export interface GatewayClient {
  /** Socket.IO: the handshake's HTTP request. */
  request?: IncomingMessage | undefined;
  /** Socket.IO: the handshake, with the client's `auth` payload. */
  handshake?: { auth?: { token?: unknown } | undefined } | undefined;
  /** Socket.IO: the per-socket data the app owns; the player goes to `data.user`. */
  data?: unknown;
  on?: ((event: string, listener: () => void) => unknown) | undefined;
  off?: ((event: string, listener: () => void) => unknown) | undefined;
}

function isObject(value: unknown): value is Record<PropertyKey, unknown> {
  return value !== null && typeof value === 'object';
}

/** Puts the player on `client.data.user` (creating `data` on a client that has none). */
export function setClientUser(client: GatewayClient, user: unknown): void {
  if (!isObject(client.data)) client.data = {};
  (client.data as { user?: unknown }).user = user;
}

/**
 * The player of a gateway's client: `data.user` (our guard, `passportResult`),
 * else what `@nestjs/passport` left on the request or handshake it authenticated.
 */
export function clientUserOf(client: unknown): unknown {
  if (!isObject(client)) return undefined;
  const fromData = isObject(client.data) ? client.data.user : undefined;
  if (fromData !== undefined) return fromData;
  const request = isObject(client.request) ? client.request.user : undefined;
  if (request !== undefined) return request;
  return isObject(client.handshake) ? client.handshake.user : undefined;
}

/** The objects a passport strategy may have been handed for this client (the request, the handshake, the client). */
export function clientRequests(client: unknown): object[] {
  if (!isObject(client)) return [];
  return [client.request, client.handshake, client].filter(isObject);
}

const DISCONNECT = ['disconnect'] as const;

/** A watch whose signal aborts when the client disconnects; `stop()` removes the listener. */
export function abortOnDisconnect(client: GatewayClient): LeaveWatch | undefined {
  if (typeof client.on !== 'function' || typeof client.off !== 'function') return undefined;
  return watchLeave(client as Leavable, DISCONNECT);
}
