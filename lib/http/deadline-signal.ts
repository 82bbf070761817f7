import type { GenericAbortSignal } from 'axios';

type Listener = () => void;

/**
 * A call's whole budget as an axios `GenericAbortSignal`: one timer and a
 * listener list. It replaces a per-call AbortController, whose construction
 * alone costs about 3 µs (a timer costs 0.1 µs). It still aborts an attempt
 * running at the deadline, a body that trickles in included: axios's own
 * `timeout` stops timing once the headers have arrived.
 */
export class DeadlineSignal implements GenericAbortSignal {
  aborted = false;
  readonly #listeners: Listener[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(delayMs: number) {
    this.#timer = setTimeout(() => this.#abort(), Math.max(0, delayMs));
    this.#timer.unref();
  }

  addEventListener(type: string, listener: Listener): void {
    if (type === 'abort' && !this.aborted) this.#listeners.push(listener);
  }

  removeEventListener(type: string, listener: Listener): void {
    const index = type === 'abort' ? this.#listeners.indexOf(listener) : -1;
    if (index >= 0) this.#listeners.splice(index, 1);
  }

  /** Stops the timer once the call has ended. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#listeners.length = 0;
  }

  #abort(): void {
    this.aborted = true;
    for (const listener of this.#listeners.splice(0)) {
      try {
        listener();
      } catch {
        // A listener's failure must not become an uncaught exception in a timer.
      }
    }
  }
}
