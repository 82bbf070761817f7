import diagnosticsChannel from 'node:diagnostics_channel';
import { EventEmitter } from 'node:events';
import type { Logger } from '../types.js';

/** How one event reads one plain channel. */
export interface ChannelView<P> {
  channel: string;
  /** The event's payload for a message of this instance; `undefined` to skip it (another instance's, or no event). */
  read: (message: object) => P | undefined;
}

/** One {@link ChannelView} per event of an emitter whose events are `T`. */
export type ChannelViews<T> = { [K in keyof T]?: T[K] extends [infer P] ? ChannelView<P> : never };

/** Handlers still subscribed for an instance, unsubscribed if it is collected with listeners left. */
type Subscriptions = Map<string, { channel: string; handler: (message: unknown) => void }>;

const collected = new FinalizationRegistry<Subscriptions>((subscriptions) => {
  for (const { channel, handler } of subscriptions.values()) diagnosticsChannel.unsubscribe(channel, handler);
});

/**
 * An EventEmitter some of whose events are a view of plain diagnostics
 * channels: the first listener of such an event subscribes the instance to
 * its channel, the last one removed unsubscribes it, and only the messages
 * of this instance are re-emitted. While nobody listens, nothing is
 * subscribed, so nothing is built or published. A listener that throws is
 * logged (warn) and never reaches the code that published.
 */
export class ChannelViewEmitter<T extends Record<keyof T, unknown[]>> extends EventEmitter<T> {
  #views: ChannelViews<T> = {};
  #logger: Logger | undefined;
  readonly #subscriptions: Subscriptions = new Map();

  /**
   * Declares the views (once, from the subclass's constructor).
   *
   * @internal
   */
  protected viewChannels(views: ChannelViews<T>, logger: Logger): void {
    this.#views = views;
    this.#logger = logger;
    collected.register(this, this.#subscriptions);
    this.#arm();
  }

  /** Without an event name, EventEmitter drops every listener, ours too: arm again. */
  override removeAllListeners(...args: Parameters<EventEmitter<T>['removeAllListeners']>): this {
    super.removeAllListeners(...args);
    if (args[0] === undefined) this.#arm();
    return this;
  }

  #arm(): void {
    const emitter = this as EventEmitter;
    emitter.on('newListener', (event: string | symbol) => this.#subscribe(event));
    emitter.on('removeListener', (event: string | symbol) => {
      if (emitter.listenerCount(event) === 0) this.#unsubscribe(event);
    });
  }

  #subscribe(event: string | symbol): void {
    if (typeof event !== 'string') return;
    const view = (this.#views as Record<string, ChannelView<unknown> | undefined>)[event];
    if (view === undefined || this.#subscriptions.has(event)) return;
    // The handler lives on a process-wide channel: it holds the instance weakly.
    const instance = new WeakRef(this as EventEmitter);
    const logger = this.#logger;
    const handler = (message: unknown): void => {
      const payload = view.read(message as object);
      if (payload === undefined) return;
      try {
        instance.deref()?.emit(event, payload);
      } catch (error) {
        logger?.warn({ event }, `a '${event}' listener threw (${error instanceof Error ? error.message : String(error)}); the operation went on`);
      }
    };
    this.#subscriptions.set(event, { channel: view.channel, handler });
    diagnosticsChannel.subscribe(view.channel, handler);
  }

  #unsubscribe(event: string | symbol): void {
    const subscription = typeof event === 'string' ? this.#subscriptions.get(event) : undefined;
    if (subscription === undefined) return;
    this.#subscriptions.delete(event as string);
    diagnosticsChannel.unsubscribe(subscription.channel, subscription.handler);
  }
}
