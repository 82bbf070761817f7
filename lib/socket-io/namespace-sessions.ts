import type { Socket } from 'socket.io';

type EngineConnection = Socket['conn'];

/**
 * Which namespaces of each engine.io connection already have a socket, being
 * authenticated or live. Socket.IO itself builds a new socket for every
 * `CONNECT` packet, even a repeated one; keeping one per namespace stops a
 * single connection from turning into thousands of sessions (or platform
 * calls). Forgotten with the connection.
 */
export class NamespaceSessions {
  readonly #byConnection = new WeakMap<EngineConnection, Map<string, Socket>>();

  /** Takes the socket's namespace on its connection; false when another socket already holds it. */
  claim(socket: Socket): boolean {
    let held = this.#byConnection.get(socket.conn);
    if (held === undefined) {
      held = new Map();
      this.#byConnection.set(socket.conn, held);
    }
    const holder = held.get(socket.nsp.name);
    if (holder !== undefined && holder !== socket) return false;
    held.set(socket.nsp.name, socket);
    return true;
  }

  /** Frees the namespace when `socket` is the one holding it (refused, disconnected). */
  release(socket: Socket): void {
    const held = this.#byConnection.get(socket.conn);
    if (held?.get(socket.nsp.name) !== socket) return;
    held.delete(socket.nsp.name);
    if (held.size === 0) this.#byConnection.delete(socket.conn);
  }
}
