import { randomUUID } from 'node:crypto';
import { LogThrottle } from '../logging/log-throttle.js';
import { LazyLru, parseSessionEnd, SCOPE_ID } from '../store/index.js';
import type { RevocationBus, SessionEndEvent, SubscribeOptions } from '../store/index.js';
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

/** The lane of the previous release's unscoped channel and log. */
const UNSCOPED = '';

/**
 * The channel and log of session ends under `prefix`, for one tenant scope
 * (a platform and a game: `client.tenantScope`). Both carry the scope as a
 * hash tag, so on a Cluster they live in one slot (one shard): what reaches
 * the channel reaches the log beside it. Without a scope, the previous
 * release's unscoped names (heard during a rolling upgrade).
 */
export function endBusNames(prefix: string, scope?: string): { channel: string; logKey: string } {
  const base = scope === undefined || scope === UNSCOPED ? prefix : `${prefix}{${scope}}:`;
  return { channel: `${base}session-end`, logKey: `${base}session-end-log` };
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
  /** Prefix of the channels and the logs, e.g. `pgp:live:MYGAME:`. */
  prefix: string;
  /**
   * Also carry events on the previous release's unscoped channel and log, so
   * that instances of both releases honour each other's revocations and
   * session ends while a rolling upgrade runs. Default `true`; set `false`
   * once every instance runs this release.
   */
  rollingUpgrade?: boolean;
  /** The clients' kind; default: told from the publisher (see `topologyOf`). */
  topology?: RedisTopology;
  /** Where failed commands are reported, one line per kind a minute; default `console.warn`. */
  logger?: Pick<Logger, 'warn'>;
}

/** One channel and its log: a tenant scope's, or the previous release's unscoped one. */
interface Lane {
  readonly scope: string;
  readonly channel: string;
  readonly logKey: string;
  readonly onMessage: (message: string) => void;
  /** Sharded pub/sub (a Cluster's scoped lanes, where the server has it). */
  sharded: boolean;
  subscribed: Promise<unknown> | undefined;
  /** True once subscribed: from then on, what the channel misses is read from the log. */
  live: boolean;
  /** The log entry id (Redis time) from which a catch-up reads; undefined: the whole window. */
  cursor: string | undefined;
}

/** A message sent, kept for resending, and the lanes it went on. */
interface Sent {
  text: string;
  lanes: string[];
}

/**
 * A {@link RevocationBus} on Redis. Each tenant scope (a platform and a game)
 * has its own channel for the instances listening now and its own short log
 * (a stream, capped at {@link END_LOG_MAX_ENTRIES} and expiring
 * {@link END_LOG_WINDOW_MS} after its last event) for those that are not
 * (names: {@link endBusNames}). Messages carry a token's digest or a
 * member_no, a reason, the scope, the sending instance's random id (an
 * instance ignores its own) and an event id (each event is delivered once).
 * With `rollingUpgrade` (the default), events also go on the previous
 * release's unscoped channel and log, and unscoped events from instances of
 * that release are delivered. The subscriber is a separate connection
 * (`client.duplicate()`), resubscribed by node-redis after a reconnection;
 * each time it is back, and every {@link LOG_SWEEP_MS} besides, the bus reads
 * the log from where it left off and delivers what it missed. On a Cluster
 * the channel is sharded (`SPUBLISH`/`SSUBSCRIBE`) where the server has it.
 * A command that fails is counted (`stats.commandFailures`) and logged once a
 * minute per kind; when Redis answers again, or a connection is back, the
 * events of the last `RESEND_WINDOW_MS` are sent again.
 */
export class RedisRevocationBus implements RevocationBus {
  readonly prefix: string;
  readonly topology: RedisTopology;
  readonly rollingUpgrade: boolean;
  readonly #origin = randomUUID();
  readonly #lanes = new Map<string, Lane>();
  /** Listeners by the scope they subscribed with (UNSCOPED: none given). */
  readonly #listeners = new Map<string, Set<(event: SessionEndEvent) => void>>();
  readonly #readyListeners = new Set<() => void>();
  readonly #seen = new LazyLru<string, true>({ max: END_LOG_MAX_ENTRIES * 2, ttl: END_LOG_WINDOW_MS + 60_000, ttlAutopurge: false });
  readonly #stats: BusStats = { caughtUp: 0, catchUps: 0, commandFailures: 0, resent: 0 };
  /** Event ids by event: an event the caller sends again keeps its id, so receivers deliver it once. */
  readonly #ids = new WeakMap<SessionEndEvent, string>();
  readonly #recent = new RecentSends<Sent>();
  readonly #run: CommandRunner;
  readonly #logger: Pick<Logger, 'warn'>;
  readonly #throttle = new LogThrottle(processMonotonic, COMMAND_ERROR_LOG_WINDOW_MS);
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

  private readonly publisher: RedisClientLike;
  private readonly subscriber: RedisSubscriberLike;

  constructor(
    publisher: RedisClientLike,
    subscriber: RedisSubscriberLike,
    options: RedisBusOptions,
  ) {
    this.publisher = publisher;
    this.subscriber = subscriber;
    this.prefix = checkPrefix(options?.prefix);
    this.topology = options.topology ?? topologyOf(publisher);
    this.rollingUpgrade = options.rollingUpgrade ?? true;
    this.#run = commandRunner(publisher, this.topology);
    this.#logger = options.logger ?? { warn: (fields: object, msg?: string) => console.warn(msg, fields) };
    // node-redis resubscribes before it reports `ready`: the log read after it misses nothing.
    onReconnect(subscriber, this.topology, () => {
      for (const lane of this.#lanes.values()) if (lane.subscribed === undefined) this.#subscribe(lane);
      this.#askCatchUp();
    });
    onReconnect(publisher, this.topology, () => this.#recovered());
  }

  /** The unscoped channel (the previous release's). */
  get channel(): string {
    return endBusNames(this.prefix).channel;
  }

  /** The unscoped log (the previous release's). */
  get logKey(): string {
    return endBusNames(this.prefix).logKey;
  }

  /** The channel and log of `scope` on this bus (unscoped without one). */
  namesFor(scope?: string): { channel: string; logKey: string } {
    return endBusNames(this.prefix, checkScope(scope));
  }

  /**
   * Sends an event: into its scope's log and on its scope's channel (and,
   * with `rollingUpgrade`, the unscoped ones too); rejects when one did not
   * take it (the caller resends, under the same id).
   */
  async publish(event: SessionEndEvent): Promise<unknown> {
    const scope = checkScope(event.scope);
    let id = this.#ids.get(event);
    if (id === undefined) {
      id = randomUUID();
      this.#ids.set(event, id);
    }
    const sent: Sent = { text: JSON.stringify({ ...event, origin: this.#origin, id }), lanes: this.#lanesOf(scope) };
    this.#recent.note(sent); // sent again after a recovery, in case a demoted primary dropped it
    return this.#send(sent);
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
    for (const lane of this.#lanesOf(scope)) this.#subscribe(this.#lane(lane));
    if (this.#sweep === undefined && !this.#closed) {
      this.#sweep = setInterval(() => this.#sweepLog(), LOG_SWEEP_MS);
      this.#sweep.unref();
    }
    return () => {
      listeners.delete(listener);
    };
  }

  /** The lanes an event of `scope` goes on, and a subscriber of `scope` hears. */
  #lanesOf(scope: string): string[] {
    return scope !== UNSCOPED && this.rollingUpgrade ? [scope, UNSCOPED] : [scope];
  }

  #lane(scope: string): Lane {
    let lane = this.#lanes.get(scope);
    if (lane === undefined) {
      lane = {
        scope,
        ...endBusNames(this.prefix, scope),
        onMessage: (message) => void this.#deliver(scope, message),
        // The previous release's channel is a classic one, on every topology.
        sharded: scope !== UNSCOPED && usesShardedPubSub(this.topology),
        subscribed: undefined,
        live: false,
        cursor: undefined,
      };
      this.#lanes.set(scope, lane);
    }
    return lane;
  }

  onReady(listener: () => void): void {
    this.#readyListeners.add(listener);
  }

  /** Resolves once the subscriptions are in place (tests, start-up), however long Redis takes to answer; at once with no listener. */
  async ready(): Promise<void> {
    for (const lane of this.#lanes.values()) {
      while (!lane.live && !this.#closed) {
        this.#subscribe(lane);
        await lane.subscribed;
        if (!lane.live) await new Promise((resolve) => setTimeout(resolve, CATCH_UP_RETRY_MS));
      }
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

  async #send({ text, lanes }: Sent): Promise<unknown> {
    const results = await Promise.allSettled(lanes.flatMap((scope) => {
      const lane = this.#lane(scope);
      return [
        this.#command('XADD', lane.logKey, appendToLog(this.#run, lane.logKey, text, END_LOG_MAX_ENTRIES, END_LOG_WINDOW_MS)),
        this.#command('PUBLISH', lane.logKey, this.#publish(lane, text)),
      ];
    }));
    for (const result of results) if (result.status === 'rejected') throw result.reason;
    // The scope's own channel: what its instances listening now took.
    return (results[1] as PromiseFulfilledResult<unknown>).value;
  }

  async #publish(lane: Lane, text: string): Promise<unknown> {
    try {
      return await publishOn(this.publisher, this.#run, lane.channel, text, lane.sharded);
    } catch (error) {
      if (!lane.sharded || !isUnknownCommand(error)) throw error;
      lane.sharded = false; // a Cluster without sharded pub/sub (before Redis 7)
      return this.publisher.publish(lane.channel, text);
    }
  }

  #subscribe(lane: Lane): void {
    if (lane.subscribed !== undefined || this.#closed) return;
    // One server's subscriber queues its SUBSCRIBE until it is connected; a Cluster's or a
    // Sentinel's refuses it: it subscribes when it reports ready (or at the next sweep).
    if (this.topology !== 'server' && !this.subscriber.isReady) return;
    lane.subscribed = this.#command('SUBSCRIBE', lane.logKey, subscribeTo(this.subscriber, lane.channel, lane.onMessage, lane.sharded)).then(
      () => this.#begin(lane),
      (error: unknown) => {
        lane.subscribed = undefined;
        if (lane.sharded && isUnknownCommand(error)) {
          lane.sharded = false;
          this.#subscribe(lane);
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
    if (this.#recent.size > 0) this.#resend.schedule();
    this.#askCatchUp();
  }

  #resendRecent(): void {
    if (this.#closed) return;
    const again = this.#recent.due();
    this.#stats.resent += again.length;
    void Promise.allSettled(again.map((sent) => this.#send(sent)));
  }

  /** True once a lane is subscribed: later `ready` events are reconnections. */
  get #live(): boolean {
    for (const lane of this.#lanes.values()) if (lane.live) return true;
    return false;
  }

  #askCatchUp(): void {
    if (!this.#live) return;
    this.#asked += 1;
    void this.#catchUp();
  }

  #sweepLog(): void {
    if (this.#closed) return;
    for (const lane of this.#lanes.values()) if (lane.subscribed === undefined) this.#subscribe(lane);
    if (this.#live) void this.#catchUp();
  }

  /** Counts and reports a failed command (once a minute per kind); the first success after failures is a recovery. */
  async #command<T>(name: string, key: string, pending: Promise<T>): Promise<T> {
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
        this.#logger.warn({ command: name, key, error: text, failures: this.#stats.commandFailures }, 'passport-game-platform/redis: a command of the session-end bus failed; what it carried is sent again once Redis answers');
      }
      throw error;
    }
  }

  // A lane's first subscription: from now on, what its channel misses is read from its log.
  async #begin(lane: Lane): Promise<void> {
    try {
      lane.cursor ??= `${await this.#command('TIME', lane.logKey, serverTimeMs(this.#run, lane.logKey))}-0`;
    } catch {
      // Redis time unknown: a catch-up then reads the whole window.
    }
    lane.live = true;
  }

  async #catchUp(): Promise<void> {
    if (this.#running || this.#closed) return;
    this.#running = true;
    const target = this.#asked;
    try {
      for (const lane of this.#lanes.values()) {
        if (!lane.live) continue;
        // Each log is read on its own node's clock (on a Cluster, its shard's).
        const now = await this.#command('TIME', lane.logKey, serverTimeMs(this.#run, lane.logKey));
        const floor = `${now - END_LOG_WINDOW_MS}-0`;
        const start = lane.cursor !== undefined && idAfter(lane.cursor, floor) ? lane.cursor : floor;
        const entries = await this.#command('XRANGE', lane.logKey, readLogEntries(this.#run, lane.logKey, start, END_LOG_MAX_ENTRIES));
        for (const { id, text } of entries) {
          lane.cursor = id;
          if (this.#deliver(lane.scope, text)) this.#stats.caughtUp += 1;
        }
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
