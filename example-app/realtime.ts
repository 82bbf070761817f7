import type { Server } from 'node:http';
import { Server as SocketIoServer } from 'socket.io';
import { createAuthenticator, type Authenticator } from '../lib/auth/index.js';
import type { PlatformClient } from '../lib/index.js';
import { SessionRegistry, type SessionEndReason } from '../lib/realtime/index.js';
import { useSocketIoAuth, type GameServer } from '../lib/socket-io/index.js';
import type { Logger } from '../lib/types.js';
import { attachWebSocket, refuseUnservedUpgrades } from '../lib/ws/index.js';

/** Options of {@link createRealtime}. */
export interface RealtimeConfig {
  client: PlatformClient;
  webCookieName: string;
  realm?: string | undefined;
  logger?: Logger | undefined;
  /** `REVERIFY_INTERVAL_MS` (default 300000). */
  reverifyIntervalMs?: number | undefined;
  /** `REVERIFY_GRACE_MS` (default 900000). */
  reverifyGraceMs?: number | undefined;
}

/** The app's live connections: one registry for Socket.IO and `/ws`. */
export interface Realtime {
  readonly authenticate: Authenticator<object, never>;
  readonly registry: SessionRegistry;
  readonly webCookieName: string;
}

/** What {@link attachRealtime} returns. */
export interface AttachedRealtime {
  /** Socket.IO, every namespace authenticated; `socket.data.user` is the player. */
  readonly io: GameServer;
  /** Live connections on both transports. */
  readonly size: number;
  /** Ends every live connection (`session:ended`, `ws` 1001 on `shutdown`); returns how many. */
  closeAll(reason?: SessionEndReason): number;
}

/** The registry and authenticator shared by the HTTP routes and the sockets. */
export function createRealtime(config: RealtimeConfig): Realtime {
  const authenticate = createAuthenticator(config.client, {
    realm: config.realm,
    logger: config.logger,
    tokenFrom: { cookie: config.webCookieName },
  });
  const registry = new SessionRegistry({
    authenticate,
    events: config.client,
    reverifyIntervalMs: config.reverifyIntervalMs,
    reverifyGraceMs: config.reverifyGraceMs,
  });
  return { authenticate, registry, webCookieName: config.webCookieName };
}

/**
 * Socket.IO at `/socket.io/` and a plain WebSocket endpoint at `/ws`, on the
 * HTTP API's own server. Both answer `ping` with the connection's member.
 */
export function attachRealtime(server: Server, realtime: Realtime): AttachedRealtime {
  const { authenticate, registry, webCookieName } = realtime;
  // destroyUpgrade: false leaves /ws upgrades to our handler even when the
  // platform takes longer than Socket.IO's 1 s to answer.
  // Every namespace, the main one and any the game adds later (io.of('/match')), is authenticated.
  const io = useSocketIoAuth(new SocketIoServer(server, { destroyUpgrade: false, serveClient: true }), { authenticate, registry, cookie: webCookieName });
  attachWebSocket(server, { authenticate, registry, cookie: webCookieName, path: '/ws' });
  refuseUnservedUpgrades(server, (pathname) => pathname === '/ws' || pathname.startsWith('/socket.io/'));
  return {
    io,
    get size(): number {
      return registry.size;
    },
    closeAll: (reason: SessionEndReason = 'shutdown') => registry.closeAll(reason),
  };
}
