import { randomUUID } from 'node:crypto';
import { LogThrottle } from '../logging/log-throttle.js';
import { LazyLru, parseSessionEnd } from '../store/index.js';
import type { RevocationBus, SessionEndEvent } from '../store/index.js';
import { processMonotonic } from '../time/monotonic.js';
import type { Logger } from '../types.js';
import { checkPrefix } from './redis-like.js';
import type { RedisClientLike, RedisSubscriberLike } from './redis-like.js';
import { commandRunner, isUnknownCommand, onReconnect, publishOn, subscribeTo, topologyOf, usesShardedPubSub } from './redis-commands.js';
import type { CommandRunner, RedisTopology } from './redis-commands.js';
import { appendToLog, idAfter, readLogEntries, serverTimeMs } from './end-log.js';
import { describeRedisError } from './redis-errors.js';
import { RecentSends, debouncedResend } from './resend-window.js';

export { RESEND_WINDOW_MS } from './resend-window.js';

/** How long session ends stay in the Redis log for instances that missed them: 10 minutes. */
export const END_LOG_WINDOW_MS = 10 * 60 * 1000;
/** Most entries of the log (Redis trims the oldest, roughly, beyond it); also the most read by one catch-up. */
export const END_LOG_MAX_ENTRIES = 10_000;
/** Pause before a catch-up that failed (Redis not answering yet) is tried again. */
export const CATCH_UP_RETRY_MS = 250;
/** The log is read this often as well, so an instance whose subscription is broken without a sign still ends sessions within seconds. */
export const LOG_SWEEP_MS = 2000;
/** At most one log line per kind of failed bus command in this window. */
export const COMMAND_ERROR_LOG_WINDOW_MS = 60_000;
/** Longest message read from the channel or the log; ours are a few hundred bytes. */
const MAX_MESSAGE_CHARS = 2048;

/**
 * The channel and log of session ends under `prefix`. On a Cluster both carry
 * one hash tag, so they live in one slot (one shard): what reaches the
 * channel reaches the log beside it. On one server or Sentinel the names stay
 * those of earlier releases, so instances of both releases hear each other.
 */
export function endBusNames(prefix: string, topology: RedisTopology): { channel: string; logKey: string } {
  if (topology === 'cluster') return { channel: `${prefix}{session-end}`, logKey: `${prefix}{session-end}:log` };
  return { channel: `${prefix}session-end`, logKey: `${prefix}session-end-log` };
}

/** What a bus has done since it started (tests, dashboards). */
export interface BusStats {
  /** Events delivered from the log after a reconnection (missed on the channel). */
  caughtUp: number;
  /** Catch-ups completed (one per reconnection of the subscriber). */
  catchUps: number;
  /** Redis commands of the bus that failed (each kind logged once per window); what failed is retried or resent. */
  commandFailures: number;
  /** Events sent again after a reconnection or a recovery (receivers drop the copies). */
  resent: number;
}

/** Options of {@link RedisRevocationBus}. */
export interface RedisBusOptions {
  /** Prefix of the channel and the log. */
  prefix: string;
  /** The clients' kind; default: told from the publisher (see `topologyOf`). */
  topology?: RedisTopology;
  /** Where failed commands are reported, one line per kind a minute; default `console.warn`. */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * A {@link RevocationBus} on Redis: each event goes on pub/sub for the
 * instances listening now, and into a short log (a stream, capped at
 * {@link END_LOG_MAX_ENTRIES} and expiring {@link END_LOG_WINDOW_MS} after its
 * last event) for those that are not (names: {@link endBusNames}). Messages
 * carry a token's digest or a member_no, a reason, the sending instance's
 * random id (an instance ignores its own) and an event id (each event is
 * delivered once). The subscriber is a separate connection
 * (`client.duplicate()`), resubscribed by node-redis after a reconnection;
 * each time it is back, and every {@link LOG_SWEEP_MS} besides, the bus reads
 * the log from where it left off and delivers what it missed. On a Cluster
 * the channel is sharded (`SPUBLISH`/`SSUBSCRIBE`) where the server has it.
 * A command that fails is counted (`stats.commandFailures`) and logged once a
 * minute per kind; when Redis answers again, or a connection is back, the
 * events of the last `RESEND_WINDOW_MS` are sent again.
 */
export class RedisRevocationBus implements RevocationBus {
  readonly channel: string;
  readonly logKey: string;
  readonly topology: RedisTopology;
  readonly #origin = randomUUID();
  readonly #listeners = new Set<(event: SessionEndEvent) => void>();
  readonly #readyListeners = new Set<() => void>();
  readonly #seen = new LazyLru<string, true>({ max: END_LOG_MAX_ENTRIES * 2, ttl: END_LOG_WINDOW_MS + 60_000, ttlAutopurge: false });
  readonly #stats: BusStats = { caughtUp: 0, catchUps: 0, commandFailures: 0, resent: 0 };
  /** Event ids by event: an event the caller sends again keeps its id, so receivers deliver it once. */
  readonly #ids = new WeakMap<SessionEndEvent, string>();
  readonly #recent = new RecentSends();
  readonly #run: CommandRunner;
  readonly #logger: Pick<Logger, 'warn'>;
  readonly #throttle = new LogThrottle(processMonotonic, COMMAND_ERROR_LOG_WINDOW_MS);
  #sharded: boolean;
  #subscribed: Promise<unknown> | undefined;
  /** The log entry id (Redis time) from which a catch-up reads; undefined: the whole window. */
  #cursor: string | undefined;
  /** True once the first subscription is in place: later `ready` events are reconnections. */
  #live = false;
  /** Catch-ups asked for (one per reconnection) and done: a reconnection during a catch-up asks for another. */
  #asked = 0;
  #done = 0;
  #running = false;
  /** A command failed and none has succeeded since: the next success is a recovery. */
  #failing = false;
  #retry: NodeJS.Timeout | undefined;
  readonly #resend = debouncedResend(() => this.#resendRecent());
  #sweep: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly publisher: RedisClientLike,
    private readonly subscriber: RedisSubscriberLike,
    options: RedisBusOptions,
  ) {
    const prefix = checkPrefix(options?.prefix);
    this.topology = options.topology ?? topologyOf(publisher);
    ({ channel: this.channel, logKey: this.logKey } = endBusNames(prefix, this.topology));
    this.#run = commandRunner(publisher, this.topology);
    this.#sharded = usesShardedPubSub(this.topology);
    this.#logger = options.logger ?? { warn: (fields: object, msg?: string) => console.warn(msg, fields) };
    // node-redis resubscribes before it reports `ready`: the log read after it misses nothing.
    onReconnect(subscriber, this.topology, () => {
      if (this.#subscribed === undefined && this.#listeners.size > 0) this.#subscribe();
      else this.#askCatchUp();
    });
    onReconnect(publisher, this.topology, () => this.#recovered());
  }

  /** Sends an event: into the log and on the channel; rejects when either did not take it (the caller resends, under the same id). */
  async publish(event: SessionEndEvent): Promise<unknown> {
    let id = this.#ids.get(event);
    if (id === undefined) {
      id = randomUUID();
      this.#ids.set(event, id);
    }
    const text = JSON.stringify({ ...event, origin: this.#origin, id });
    this.#recent.note(text); // sent again after a recovery, in case a demoted primary dropped it
    return this.#send(text);
  }

  subscribe(listener: (event: SessionEndEvent) => void): () => void {
    this.#listeners.add(listener);
    this.#subscribe();
    if (this.#sweep === undefined && !this.#closed) {
      this.#sweep = setInterval(() => this.#sweepLog(), LOG_SWEEP_MS);
      this.#sweep.unref();
    }
    return () => {
      this.#listeners.delete(listener);
    };
  }

  onReady(listener: () => void): void {
    this.#readyListeners.add(listener);
  }

  /** Resolves once the subscription is in place (tests, start-up), however long Redis takes to answer; at once with no listener. */
  async ready(): Promise<void> {
    while (!this.#live && this.#listeners.size > 0 && !this.#closed) {
      this.#subscribe();
      await this.#subscribed;
      if (!this.#live) await new Promise((resolve) => setTimeout(resolve, CATCH_UP_RETRY_MS));
    }
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
    this.#resend.cancel();
    clearInterval(this.#sweep);
  }

  async #send(text: string): Promise<unknown> {
    const [logged, published] = await Promise.allSettled([
      this.#command('XADD', appendToLog(this.#run, this.logKey, text, END_LOG_MAX_ENTRIES, END_LOG_WINDOW_MS)),
      this.#command('PUBLISH', this.#publish(text)),
    ]);
    if (published.status === 'rejected') throw published.reason;
    if (logged.status === 'rejected') throw logged.reason;
    return published.value;
  }

  async #publish(text: string): Promise<unknown> {
    try {
      return await publishOn(this.publisher, this.#run, this.channel, text, this.#sharded);
    } catch (error) {
      if (!this.#sharded || !isUnknownCommand(error)) throw error;
      this.#sharded = false; // a Cluster without sharded pub/sub (before Redis 7)
      return this.publisher.publish(this.channel, text);
    }
  }

  #subscribe(): void {
    if (this.#subscribed !== undefined || this.#closed) return;
    // One server's subscriber queues its SUBSCRIBE until it is connected; a Cluster's or a
    // Sentinel's refuses it: it subscribes when it reports ready (or at the next sweep).
    if (this.topology !== 'server' && !this.subscriber.isReady) return;
    this.#subscribed = this.#command('SUBSCRIBE', subscribeTo(this.subscriber, this.channel, this.#onMessage, this.#sharded)).then(
      () => this.#begin(),
      (error: unknown) => {
        this.#subscribed = undefined;
        if (this.#sharded && isUnknownCommand(error)) {
          this.#sharded = false;
          this.#subscribe();
        }
        // Otherwise tried again at the next sweep.
      },
    );
  }

  // A connection is back, or Redis answers again after failing: send what may have been lost, read what was missed.
  #recovered(): void {
    if (this.#closed) return;
    for (const listener of this.#readyListeners) listener();
    // One resend for a burst of recoveries (a failover flaps): what was sent meanwhile is in it too.
    if (this.#recent.size > 0) this.#resend.request();
    this.#askCatchUp();
  }

  #resendRecent(): void {
    if (this.#closed) return;
    const again = this.#recent.due();
    this.#stats.resent += again.length;
    void Promise.allSettled(again.map((text) => this.#send(text)));
  }

  #askCatchUp(): void {
    if (!this.#live) return;
    this.#asked += 1;
    void this.#catchUp();
  }

  #sweepLog(): void {
    if (this.#closed) return;
    if (this.#subscribed === undefined && this.#listeners.size > 0) this.#subscribe();
    else if (this.#live) void this.#catchUp();
  }

  /** Counts and reports a failed command (once a minute per kind); the first success after failures is a recovery. */
  async #command<T>(name: string, pending: Promise<T>): Promise<T> {
    try {
      const value = await pending;
      if (this.#failing) {
        this.#failing = false;
        this.#recovered();
      }
      return value;
    } catch (error) {
      this.#failing = true;
      this.#stats.commandFailures += 1;
      const text = describeRedisError(error);
      if (this.#throttle.allow(`${name} ${text}`)) {
        this.#logger.warn({ command: name, key: this.logKey, error: text, failures: this.#stats.commandFailures }, 'passport-game-platform/redis: a command of the session-end bus failed; what it carried is sent again once Redis answers');
      }
      throw error;
    }
  }

  // The first subscription: from now on, what the channel misses is read from the log.
  async #begin(): Promise<void> {
    try {
      this.#cursor = `${await this.#command('TIME', serverTimeMs(this.#run, this.logKey))}-0`;
    } catch {
      // Redis time unknown: a catch-up then reads the whole window.
    }
    this.#live = true;
  }

  async #catchUp(): Promise<void> {
    if (this.#running || this.#closed) return;
    this.#running = true;
    const target = this.#asked;
    try {
      const now = await this.#command('TIME', serverTimeMs(this.#run, this.logKey));
      const floor = `${now - END_LOG_WINDOW_MS}-0`;
      const start = this.#cursor !== undefined && idAfter(this.#cursor, floor) ? this.#cursor : floor;
      const entries = await this.#command('XRANGE', readLogEntries(this.#run, this.logKey, start, END_LOG_MAX_ENTRIES));
      for (const { id, text } of entries) {
        this.#cursor = id;
        if (this.#deliver(text)) this.#stats.caughtUp += 1;
      }
      if (target > this.#done) this.#stats.catchUps += 1;
      this.#done = target;
    } catch {
      // Redis is not answering yet: try again shortly (and at the next `ready`).
      clearTimeout(this.#retry);
      if (this.#asked > this.#done) {
        this.#retry = setTimeout(() => void this.#catchUp(), CATCH_UP_RETRY_MS);
        this.#retry.unref();
      }
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
