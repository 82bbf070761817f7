import { randomUUID } from 'node:crypto';
import { LazyLru, parseSessionEnd, SCOPE_ID } from '../store/index.js';
import type { RevocationBus, SessionEndEvent, SubscribeOptions } from '../store/index.js';
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
/** The lane of the previous release's unscoped channel and log. */
const UNSCOPED = '';

/** What a bus has done since it started (tests, dashboards). */
export interface BusStats {
  /** Events delivered from the log after a reconnection (missed on the channel). */
  caughtUp: number;
  /** Catch-ups completed (one per reconnection of the subscriber). */
  catchUps: number;
}

/** Options of {@link RedisRevocationBus}. */
export interface RedisBusOptions {
  /** Prefix of every key and channel, e.g. `pgp:live:MYGAME:`. */
  prefix: string;
  /**
   * Also carry events on the previous release's unscoped channel and log, so
   * that instances of both releases honour each other's revocations and
   * session ends while a rolling upgrade runs. Default `true`; set `false`
   * once every instance runs this release.
   */
  rollingUpgrade?: boolean;
}

/** One channel and its log: a tenant scope's, or the previous release's unscoped one. */
interface Lane {
  readonly channel: string;
  readonly logKey: string;
  readonly onMessage: (message: string) => void;
  subscribed: Promise<unknown> | undefined;
  /** The log entry id (Redis time) from which a catch-up reads; undefined: the whole window. */
  cursor: string | undefined;
}

/** The channel and log names of a scope: under a hash tag, so both live on one Redis Cluster slot. */
export function laneNames(prefix: string, scope: string): { channel: string; logKey: string } {
  const base = scope === UNSCOPED ? prefix : `${prefix}{${scope}}:`;
  return { channel: `${base}session-end`, logKey: `${base}session-end-log` };
}

/**
 * A {@link RevocationBus} on Redis. Each tenant scope (a platform and a game)
 * has its own channel, `prefix + '{' + scope + '}:session-end'`, for the
 * instances listening now, and its own short log (a stream,
 * `prefix + '{' + scope + '}:session-end-log'`, capped at
 * {@link END_LOG_MAX_ENTRIES} and expiring {@link END_LOG_WINDOW_MS} after its
 * last event) for those that are not. Messages carry a token's digest or a
 * member_no, a reason, the scope, the sending instance's random id (an
 * instance ignores its own) and an event id (each event is delivered once).
 * The subscriber is a separate connection (`client.duplicate()`),
 * resubscribed by node-redis after a reconnection; each time it is back, the
 * bus reads the logs from where it lost the channels and delivers what it
 * missed. With `rollingUpgrade` (the default), events also go on the previous
 * release's unscoped channel and log, and unscoped events from instances of
 * that release are delivered.
 */
export class RedisRevocationBus implements RevocationBus {
  readonly prefix: string;
  readonly rollingUpgrade: boolean;
  readonly #origin = randomUUID();
  readonly #lanes = new Map<string, Lane>();
  /** Listeners by the scope they subscribed with (UNSCOPED: none given). */
  readonly #listeners = new Map<string, Set<(event: SessionEndEvent) => void>>();
  readonly #seen = new LazyLru<string, true>({ max: END_LOG_MAX_ENTRIES * 2, ttl: END_LOG_WINDOW_MS + 60_000, ttlAutopurge: false });
  readonly #stats: BusStats = { caughtUp: 0, catchUps: 0 };
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
    options: RedisBusOptions,
  ) {
    this.prefix = checkPrefix(options?.prefix);
    this.rollingUpgrade = options.rollingUpgrade ?? true;
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

  /** The unscoped channel (the previous release's). */
  get channel(): string {
    return laneNames(this.prefix, UNSCOPED).channel;
  }

  /** The unscoped log key (the previous release's). */
  get logKey(): string {
    return laneNames(this.prefix, UNSCOPED).logKey;
  }

  /**
   * Sends an event: into its scope's log, then on its scope's channel (and,
   * with `rollingUpgrade`, the unscoped ones too); rejects when its channel
   * did not take it (the caller resends).
   */
  async publish(event: SessionEndEvent): Promise<unknown> {
    const scope = checkScope(event.scope);
    const text = JSON.stringify({ ...event, origin: this.#origin, id: randomUUID() });
    const lanes = scope !== UNSCOPED && this.rollingUpgrade ? [scope, UNSCOPED] : [scope];
    const sent = await Promise.allSettled(lanes.flatMap((lane) => this.#send(lane, text)));
    // The scope's own channel is what its instances listen on now: it must have taken the event.
    const published = sent[2]!;
    if (published.status === 'rejected') throw published.reason;
    return published.value;
  }

  #send(scope: string, text: string): Promise<unknown>[] {
    const { channel, logKey } = laneNames(this.prefix, scope);
    return [
      this.publisher.sendCommand(['XADD', logKey, 'MAXLEN', '~', String(END_LOG_MAX_ENTRIES), '*', 'e', text]),
      this.publisher.sendCommand(['PEXPIRE', logKey, String(END_LOG_WINDOW_MS)]),
      this.publisher.publish(channel, text),
    ];
  }

  /**
   * Delivers other instances' events of `options.scope` (and, with
   * `rollingUpgrade`, the previous release's unscoped ones); without a
   * scope, every event on the unscoped channel, as the previous release did.
   */
  subscribe(listener: (event: SessionEndEvent) => void, options?: SubscribeOptions): () => void {
    const scope = checkScope(options?.scope);
    let listeners = this.#listeners.get(scope);
    if (listeners === undefined) this.#listeners.set(scope, listeners = new Set());
    listeners.add(listener);
    for (const lane of scope !== UNSCOPED && this.rollingUpgrade ? [scope, UNSCOPED] : [scope]) this.#listen(lane);
    return () => {
      listeners.delete(listener);
    };
  }

  #listen(scope: string): void {
    let lane = this.#lanes.get(scope);
    if (lane === undefined) {
      const names = laneNames(this.prefix, scope);
      lane = { ...names, onMessage: (message) => void this.#deliver(scope, message), subscribed: undefined, cursor: undefined };
      this.#lanes.set(scope, lane);
    }
    const it = lane;
    it.subscribed ??= this.subscriber.subscribe(it.channel, it.onMessage).then(
      () => this.#begin(it),
      () => {
        it.subscribed = undefined;
      },
    );
  }

  onReady(listener: () => void): void {
    this.publisher.on?.('ready', listener);
  }

  /** Resolves once the subscriptions are in place (tests, start-up). */
  async ready(): Promise<void> {
    for (const lane of this.#lanes.values()) await lane.subscribed;
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

  // A lane's first subscription: from now on, what its channel misses is read from its log.
  async #begin(lane: Lane): Promise<void> {
    this.#live = true;
    try {
      lane.cursor ??= `${await serverTimeMs(this.publisher)}-0`;
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
      for (const [scope, lane] of this.#lanes) {
        const start = lane.cursor !== undefined && idAfter(lane.cursor, floor) ? lane.cursor : floor;
        const entries = await readLogEntries(this.publisher, lane.logKey, start, END_LOG_MAX_ENTRIES);
        for (const { id, text } of entries) {
          lane.cursor = id;
          if (this.#deliver(scope, text)) this.#stats.caughtUp += 1;
        }
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

  /**
   * Hands a message read on `lane` to the listeners it is for, unless it is
   * ours, malformed or already delivered from that lane; true when delivered.
   * A scope's lane carries only that scope's events. The unscoped lane goes
   * to unscoped listeners whole, and to scoped ones only for events with no
   * scope (the previous release's): a scoped event there is a copy of one on
   * its own lane.
   */
  #deliver(lane: string, message: unknown): boolean {
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
    const event = parseSessionEnd(parsed);
    if (event === undefined) return false;
    const recipients = lane === UNSCOPED ? this.#unscopedRecipients(event) : event.scope === lane ? [...(this.#listeners.get(lane) ?? [])] : [];
    if (recipients.length === 0) return false;
    if (typeof id === 'string' && id.length <= 64) {
      const seen = `${lane}:${id}`;
      if (this.#seen.has(seen)) return false;
      this.#seen.set(seen, true);
    }
    for (const listener of recipients) listener(event);
    return true;
  }

  #unscopedRecipients(event: SessionEndEvent): ((event: SessionEndEvent) => void)[] {
    const recipients = [...(this.#listeners.get(UNSCOPED) ?? [])];
    if (event.scope !== undefined || !this.rollingUpgrade) return recipients;
    for (const [scope, listeners] of this.#listeners) if (scope !== UNSCOPED) recipients.push(...listeners);
    return recipients;
  }
}

/** A scope given to the bus: 16 hex digits, or none (the unscoped lane). */
function checkScope(scope: unknown): string {
  if (scope === undefined) return UNSCOPED;
  if (typeof scope !== 'string' || !SCOPE_ID.test(scope)) {
    throw new TypeError('passport-game-platform/redis: a scope must be 16 hex digits');
  }
  return scope;
}
