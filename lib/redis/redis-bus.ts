import { randomUUID } from 'node:crypto';
import { LazyLru, parseSessionEnd } from '../store/index.js';
import type { RevocationBus, SessionEndEvent } from '../store/index.js';
import { checkPrefix } from './redis-like.js';
import type { RedisClientLike, RedisSubscriberLike } from './redis-like.js';
import { idAfter, readLogEntries, serverTimeMs } from './end-log.js';

/** How long session ends stay in the Redis log for instances that missed them: 10 minutes. */
export const END_LOG_WINDOW_MS = 10 * 60 * 1000;
/** Most entries of the log (Redis trims the oldest, roughly, beyond it); also the most read by one catch-up. */
export const END_LOG_MAX_ENTRIES = 10_000;
/** Pause before a catch-up that failed (Redis not answering yet) is tried again. */
export const CATCH_UP_RETRY_MS = 250;
/** Longest message read from the channel or the log; ours are a few hundred bytes. */
const MAX_MESSAGE_CHARS = 2048;

/** What a bus has done since it started (tests, dashboards). */
export interface BusStats {
  /** Events delivered from the log after a reconnection (missed on the channel). */
  caughtUp: number;
  /** Catch-ups completed (one per reconnection of the subscriber). */
  catchUps: number;
}

/**
 * A {@link RevocationBus} on Redis: each event goes on pub/sub (channel
 * `prefix + 'session-end'`) for the instances listening now, and into a short
 * log (a stream, `prefix + 'session-end-log'`, capped at
 * {@link END_LOG_MAX_ENTRIES} and expiring {@link END_LOG_WINDOW_MS} after its
 * last event) for those that are not. Messages carry a token's digest or a
 * member_no, a reason, the sending instance's random id (an instance ignores
 * its own) and an event id (each event is delivered once). The subscriber is a
 * separate connection (`client.duplicate()`), resubscribed by node-redis after
 * a reconnection; each time it is back, the bus reads the log from where it
 * lost the channel and delivers what it missed.
 */
export class RedisRevocationBus implements RevocationBus {
  readonly channel: string;
  readonly logKey: string;
  readonly #origin = randomUUID();
  readonly #listeners = new Set<(event: SessionEndEvent) => void>();
  readonly #seen = new LazyLru<string, true>({ max: END_LOG_MAX_ENTRIES * 2, ttl: END_LOG_WINDOW_MS + 60_000, ttlAutopurge: false });
  readonly #stats: BusStats = { caughtUp: 0, catchUps: 0 };
  #subscribed: Promise<unknown> | undefined;
  /** The log entry id (Redis time) from which a catch-up reads; undefined: the whole window. */
  #cursor: string | undefined;
  /** True once the first subscription is in place: later `ready` events are reconnections. */
  #live = false;
  /** Catch-ups asked for (one per reconnection) and done: a reconnection during a catch-up asks for another. */
  #asked = 0;
  #done = 0;
  #running = false;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly publisher: RedisClientLike,
    private readonly subscriber: RedisSubscriberLike,
    options: { prefix: string },
  ) {
    const prefix = checkPrefix(options?.prefix);
    this.channel = `${prefix}session-end`;
    this.logKey = `${prefix}session-end-log`;
    // node-redis resubscribes before it reports `ready`: the log read after it misses nothing.
    subscriber.on?.('ready', () => {
      if (!this.#live) return;
      this.#asked += 1;
      void this.#catchUp();
    });
    publisher.on?.('ready', () => {
      if (this.#asked > this.#done) void this.#catchUp();
    });
  }

  /** Sends an event: into the log, then on the channel; rejects when the channel did not take it (the caller resends). */
  async publish(event: SessionEndEvent): Promise<unknown> {
    const text = JSON.stringify({ ...event, origin: this.#origin, id: randomUUID() });
    const [, , published] = await Promise.allSettled([
      this.publisher.sendCommand(['XADD', this.logKey, 'MAXLEN', '~', String(END_LOG_MAX_ENTRIES), '*', 'e', text]),
      this.publisher.sendCommand(['PEXPIRE', this.logKey, String(END_LOG_WINDOW_MS)]),
      this.publisher.publish(this.channel, text),
    ]);
    if (published.status === 'rejected') throw published.reason;
    return published.value;
  }

  subscribe(listener: (event: SessionEndEvent) => void): () => void {
    this.#listeners.add(listener);
    this.#subscribed ??= this.subscriber.subscribe(this.channel, this.#onMessage).then(
      () => this.#begin(),
      () => {
        this.#subscribed = undefined;
      },
    );
    return () => {
      this.#listeners.delete(listener);
    };
  }

  onReady(listener: () => void): void {
    this.publisher.on?.('ready', listener);
  }

  /** Resolves once the subscription is in place (tests, start-up). */
  async ready(): Promise<void> {
    await this.#subscribed;
  }

  /** Resolves once no catch-up is waiting (tests): at once when none was needed. */
  async caughtUp(): Promise<void> {
    while (this.#asked > this.#done && !this.#closed) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  get stats(): Readonly<BusStats> {
    return { ...this.#stats };
  }

  health(): { state: 'ready' | 'connecting' | 'down' } {
    if (this.subscriber.isReady && this.publisher.isReady) return { state: 'ready' };
    return { state: this.publisher.isOpen ? 'connecting' : 'down' };
  }

  /** Stops catching up (the connections are closed by their owner). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
  }

  // The first subscription: from now on, what the channel misses is read from the log.
  async #begin(): Promise<void> {
    this.#live = true;
    try {
      this.#cursor = `${await serverTimeMs(this.publisher)}-0`;
    } catch {
      // Redis time unknown: a catch-up then reads the whole window.
    }
  }

  async #catchUp(): Promise<void> {
    if (this.#running || this.#closed) return;
    this.#running = true;
    const target = this.#asked;
    try {
      const now = await serverTimeMs(this.publisher);
      const floor = `${now - END_LOG_WINDOW_MS}-0`;
      const start = this.#cursor !== undefined && idAfter(this.#cursor, floor) ? this.#cursor : floor;
      const entries = await readLogEntries(this.publisher, this.logKey, start, END_LOG_MAX_ENTRIES);
      for (const { id, text } of entries) {
        this.#cursor = id;
        if (this.#deliver(text)) this.#stats.caughtUp += 1;
      }
      this.#stats.catchUps += 1;
      this.#done = target;
    } catch {
      // Redis is not answering yet: try again shortly (and at the next `ready`).
      clearTimeout(this.#retry);
      this.#retry = setTimeout(() => void this.#catchUp(), CATCH_UP_RETRY_MS);
      this.#retry.unref();
    } finally {
      this.#running = false;
    }
    if (this.#asked > this.#done && this.#done === target && !this.#closed) void this.#catchUp();
  }

  readonly #onMessage = (message: string): void => {
    this.#deliver(message);
  };

  /** Hands a message to the listeners unless it is ours, malformed or already delivered; true when delivered. */
  #deliver(message: unknown): boolean {
    if (typeof message !== 'string' || message.length > MAX_MESSAGE_CHARS) return false;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return false;
    }
    if (parsed === null || typeof parsed !== 'object') return false;
    const { origin, id } = parsed as { origin?: unknown; id?: unknown };
    if (origin === this.#origin) return false;
    if (typeof id === 'string' && id.length <= 64) {
      if (this.#seen.has(id)) return false;
      this.#seen.set(id, true);
    }
    const event = parseSessionEnd(parsed);
    if (event === undefined) return false;
    for (const listener of this.#listeners) listener(event);
    return true;
  }
}
