/**
 * An adapter's handshakes still in progress (waiting for a first message,
 * or for the platform's answer), so that shutdown reaches them too. Each is
 * forgotten as soon as it settles: nothing stays once the connection is
 * live, refused or gone.
 */
export class PendingHandshakes<K extends object = object> {
  readonly #enders = new Map<K, () => void>();

  /** Handshakes in progress. */
  get size(): number {
    return this.#enders.size;
  }

  /** Tracks a handshake; `end` is what shutdown does to it. */
  add(key: K, end: () => void): void {
    this.#enders.set(key, end);
  }

  /**
   * Forgets a handshake that finished on its own. False when it was no
   * longer pending (shutdown ended it): the caller must then do nothing more.
   */
  settle(key: K): boolean {
    return this.#enders.delete(key);
  }

  /** Ends every handshake in progress; returns how many. */
  endAll(): number {
    const enders = [...this.#enders.values()];
    this.#enders.clear();
    for (const end of enders) {
      try {
        end();
      } catch {
        // A transport that fails while closing is closed enough.
      }
    }
    return enders.length;
  }
}
