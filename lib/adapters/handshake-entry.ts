import type { Leavable } from './leave-watch.js';
import { watchLeave } from './leave-watch.js';
import type { PendingHandshakes } from './pending-handshakes.js';

/** What a handshake settled by someone else (its client left, shutdown ended it) resolves with. */
export const OVERTAKEN: unique symbol = Symbol('passport-game-platform.handshake-overtaken');

/** One handshake for {@link admitHandshake}. */
export interface HandshakeEntry<K extends object, T> {
  /** Verifies the handshake's token with the signal that aborts when the client leaves. */
  verify(signal: AbortSignal): Promise<T>;
  /** The adapter's handshakes in progress; shutdown ends them. */
  pending: PendingHandshakes<K>;
  /** This handshake's key in `pending` (its socket). */
  key: K;
  /** The client's connection, and the events that mean it has gone. */
  client: Leavable;
  leaveOn: readonly string[];
  /** What to do once the client left while it was pending (after its platform call was aborted). */
  onLeave(): void;
  /** What shutdown does to it while it is pending (after its platform call was aborted). */
  onShutdown(): void;
}

/**
 * The kit's one way in for a socket's handshake (a WebSocket upgrade, a Socket.IO handshake):
 * the token is verified while the client is watched (leaving aborts the platform call) and
 * while the handshake is tracked for shutdown. Resolves with the verification's result, or
 * rejects with its refusal, only when this call settled the handshake; {@link OVERTAKEN} when
 * something else settled it first: the adapter must then do nothing more.
 */
export function admitHandshake<K extends object, T>(entry: HandshakeEntry<K, T>): Promise<T | typeof OVERTAKEN> {
  const { pending, key } = entry;
  const watch = watchLeave(entry.client, entry.leaveOn, () => {
    if (pending.settle(key)) entry.onLeave();
  });
  pending.add(key, () => {
    watch.abort();
    entry.onShutdown();
  });
  return entry.verify(watch.signal).then((value) => {
    watch.stop();
    return pending.settle(key) ? value : OVERTAKEN;
  }, (err: unknown) => {
    watch.stop();
    if (!pending.settle(key)) return OVERTAKEN;
    throw err;
  });
}
