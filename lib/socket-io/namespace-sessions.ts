import type { Socket } from 'socket.io';

type EngineConnection = Socket['conn'];

/**
 * Which namespaces of each engine.io connection already have a socket, being
 * authenticated or live. Socket.IO itself builds a new socket for every
 * `CONNECT` packet, even a repeated one; keeping one per namespace stops a
 * single connection from turning into thousands of sessions (or platform
 * calls). Forgotten with the connection.
 *
 * A connection nearly always joins one namespace, so its entry is that
 * socket itself (the socket knows its namespace); a Map only from the second
 * namespace on.
 */
export class NamespaceSessions {
  readonly #byConnection = new WeakMap<EngineConnection, Socket | Map<string, Socket>>();

  /** Takes the socket's namespace on its connection; false when another socket already holds it. */
  claim(socket: Socket): boolean {
    const { conn } = socket;
    const name = socket.nsp.name;
    const held = this.#byConnection.get(conn);
    if (held === undefined) {
      this.#byConnection.set(conn, socket);
      return true;
    }
    if (held instanceof Map) {
      const holder = held.get(name);
      if (holder !== undefined && holder !== socket) return false;
      held.set(name, socket);
      return true;
    }
    if (held === socket) return true;
    if (held.nsp.name === name) return false;
    this.#byConnection.set(conn, new Map([[held.nsp.name, held], [name, socket]]));
    return true;
  }

  /** Frees the namespace when `socket` is the one holding it (refused, disconnected). */
  release(socket: Socket): void {
    const { conn } = socket;
    const held = this.#byConnection.get(conn);
    if (held === socket) {
      this.#byConnection.delete(conn);
      return;
    }
    if (!(held instanceof Map)) return;
    const name = socket.nsp.name;
    if (held.get(name) !== socket) return;
    held.delete(name);
    if (held.size === 1) this.#byConnection.set(conn, held.values().next().value!);
  }
}
