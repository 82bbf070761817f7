import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

// Colyseus merges `?_authToken=` and an `Authorization: Bearer` header into
// one `context.token`, so `onAuth` alone cannot tell a URL token that equals
// the header from a header on its own. Watching the transport's upgrades
// tells them apart: each room socket is recorded with whether its URL carried
// a token, before Colyseus sees the connection.

/** What we need of a transport: the `ws` server behind Colyseus's stock `WebSocketTransport`. */
export interface WatchableTransport {
  wss?: { prependListener(event: 'connection', listener: (socket: object, req: IncomingMessage) => void): unknown } | undefined;
}

const urlTokenOf = new WeakMap<object, boolean>();
const watched = new WeakSet<object>();

function carriesUrlToken(req: IncomingMessage): boolean {
  try {
    return new URL(req.url ?? '/', 'ws://server').searchParams.has('_authToken');
  } catch {
    // A URL we cannot parse cannot be proven token-free.
    return true;
  }
}

/** Starts recording, for each socket the transport accepts, whether its URL carried `_authToken` (once per transport). */
export function watchTransport(transport: WatchableTransport | undefined): boolean {
  const wss = transport?.wss;
  if (wss === undefined || typeof wss.prependListener !== 'function') return false;
  if (watched.has(wss)) return true;
  watched.add(wss);
  wss.prependListener('connection', (socket, req) => urlTokenOf.set(socket, carriesUrlToken(req)));
  return true;
}

// Colyseus 0.18 keeps the running server's transport in its Transport
// module (reachable through the package's `./*` export); 0.16 has no such
// module. Loaded once, in the background: rooms are created well after.
const TRANSPORT_MODULE = '@colyseus/core/Transport';
let getTransport: (() => unknown) | undefined;
let loading: Promise<void> | undefined;

/** Starts loading Colyseus's transport accessor (a no-op on a Colyseus without one). */
export function loadTransportAccessor(): Promise<void> {
  loading ??= import(TRANSPORT_MODULE).then(
    (mod: { getTransport?: unknown }) => {
      if (typeof mod.getTransport === 'function') getTransport = mod.getTransport as () => unknown;
    },
    () => undefined,
  );
  return loading;
}

/** The transport of the running Colyseus server, when this Colyseus publishes it (0.18 and later). */
export function currentTransport(): WatchableTransport | undefined {
  try {
    return (getTransport?.() ?? undefined);
  } catch {
    return undefined;
  }
}

/** `true`/`false` for a socket a watched transport accepted; `undefined` when no watched transport saw it. */
export function urlTokenSeen(socket: object): boolean | undefined {
  return urlTokenOf.get(socket);
}

/** Colyseus 0.16 hands a header record, 0.18 a Fetch `Headers`: both become a record with lower-case names. */
export function headerRecord(headers: unknown): IncomingHttpHeaders {
  if (headers === null || typeof headers !== 'object') return {};
  const fetchHeaders = headers as { forEach?: unknown; get?: unknown };
  if (typeof fetchHeaders.forEach === 'function' && typeof fetchHeaders.get === 'function') {
    const record: IncomingHttpHeaders = {};
    (headers as Headers).forEach((value, name) => {
      record[name.toLowerCase()] = value;
    });
    return record;
  }
  return headers as IncomingHttpHeaders;
}
