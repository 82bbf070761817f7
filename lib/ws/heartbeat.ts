import type { WebSocket, WebSocketServer } from 'ws';

/** Default time between two heartbeat pings of a `/ws` connection: 30 s. */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;

/** The heartbeat of one `WebSocketServer`: `watch` each socket it creates; `stop` ends the timer. */
export interface Heartbeat {
  watch(ws: WebSocket): void;
  stop(): void;
}

/**
 * Pings every socket of `wss` each `intervalMs`; a socket that has answered
 * none of our pings by the next tick is terminated (a vanished peer sends no
 * FIN, and otherwise would keep its buffers, and its token's re-verification,
 * for as long as the token lives). One timer for the whole server; per socket
 * only its membership in a WeakSet. `intervalMs` 0 turns it off.
 */
export function startHeartbeat(wss: WebSocketServer, intervalMs: number): Heartbeat {
  const answered = new WeakSet<WebSocket>();
  function onPong(this: WebSocket): void {
    answered.add(this);
  }
  if (intervalMs === 0) return { watch: () => undefined, stop: () => undefined };
  const timer = setInterval(() => {
    for (const ws of wss.clients) {
      if (!answered.delete(ws)) {
        ws.terminate();
        continue;
      }
      try {
        ws.ping();
      } catch {
        // Not open any more: its close is already on its way.
      }
    }
  }, intervalMs);
  timer.unref();
  return {
    watch(ws: WebSocket): void {
      // A new socket counts as answered: it is first pinged at the next tick.
      answered.add(ws);
      ws.on('pong', onPong);
    },
    stop: () => clearInterval(timer),
  };
}
