import { randomUUID } from 'node:crypto';
import { parseSessionEnd } from '../fleet/index.js';
import type { RevocationBus, SessionEndEvent } from '../fleet/index.js';
import { checkPrefix } from './redis-like.js';
import type { RedisClientLike, RedisSubscriberLike } from './redis-like.js';

/**
 * A {@link RevocationBus} on Redis pub/sub (channel `prefix + 'session-end'`):
 * messages carry a token's digest or a member_no, a reason and the sending
 * instance's random id (an instance ignores its own). The subscriber is a
 * separate connection (`client.duplicate()`), resubscribed by node-redis
 * after a reconnection.
 */
export class RedisRevocationBus implements RevocationBus {
  readonly channel: string;
  readonly #origin = randomUUID();
  readonly #listeners = new Set<(event: SessionEndEvent) => void>();
  #subscribed: Promise<unknown> | undefined;

  constructor(
    private readonly publisher: RedisClientLike,
    private readonly subscriber: RedisSubscriberLike,
    options: { prefix: string },
  ) {
    this.channel = `${checkPrefix(options?.prefix)}session-end`;
  }

  publish(event: SessionEndEvent): Promise<unknown> {
    return this.publisher.publish(this.channel, JSON.stringify({ ...event, origin: this.#origin }));
  }

  subscribe(listener: (event: SessionEndEvent) => void): () => void {
    this.#listeners.add(listener);
    this.#subscribed ??= this.subscriber.subscribe(this.channel, this.#onMessage).catch(() => {
      this.#subscribed = undefined;
    });
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Resolves once the subscription is in place (tests, start-up). */
  async ready(): Promise<void> {
    await this.#subscribed;
  }

  health(): { state: 'ready' | 'connecting' | 'down' } {
    if (this.subscriber.isReady && this.publisher.isReady) return { state: 'ready' };
    return { state: this.publisher.isOpen ? 'connecting' : 'down' };
  }

  readonly #onMessage = (message: string): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (parsed === null || typeof parsed !== 'object' || (parsed as { origin?: unknown }).origin === this.#origin) return;
    const event = parseSessionEnd(parsed);
    if (event === undefined) return;
    for (const listener of this.#listeners) listener(event);
  };
}
