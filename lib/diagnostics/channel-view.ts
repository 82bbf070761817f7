import type { Channel } from 'node:diagnostics_channel';
import { EventEmitter } from 'node:events';
import type { Logger } from '../types.js';

/** How one event of an instance relates to one plain channel. */
export interface ChannelView<P, M extends object = object> {
  channel: Channel;
  /** The event's payload for a message (a copy: listeners never hold the published object). */
  read: (message: M) => P | undefined;
}

/** One {@link ChannelView} per event of an emitter whose events are `T`. */
export type ChannelViews<T> = { [K in keyof T]?: T[K] extends [infer P] ? ChannelView<P, never> : never };

/**
 * An EventEmitter some of whose events are this instance's view of plain
 * diagnostics channels. Each fact is told once, by {@link tell}: published on
 * the channel when it has subscribers, emitted to this instance's listeners
 * when it has some. The instance never subscribes to a channel (no
 * process-wide handler filtering other instances' messages). While nobody
 * listens either way, nothing is built. A listener that throws is logged
 * (warn) and never reaches the code that told.
 */
export class ChannelViewEmitter<T extends Record<keyof T, unknown[]>> extends EventEmitter<T> {
  #views: ChannelViews<T> = {};
  #logger: Logger | undefined;

  /**
   * Declares the views (once, from the subclass's constructor).
   *
   * @internal
   */
  protected viewChannels(views: ChannelViews<T>, logger: Logger): void {
    this.#views = views;
    this.#logger = logger;
  }

  /** True when a message for `event` would reach anyone: its channel's subscribers or this instance's listeners. */
  heard(event: keyof T & string): boolean {
    const view = this.#views[event] as ChannelView<unknown> | undefined;
    return (view?.channel.hasSubscribers ?? false) || (this as EventEmitter).listenerCount(event) > 0;
  }

  /** Publishes `message` on `event`'s channel and emits this instance's view of it. */
  tell(event: keyof T & string, message: object): void {
    const view = this.#views[event] as ChannelView<unknown, object> | undefined;
    if (view === undefined) return;
    if (view.channel.hasSubscribers) view.channel.publish(message);
    const emitter = this as EventEmitter;
    if (emitter.listenerCount(event) === 0) return;
    const payload = view.read(message);
    if (payload === undefined) return;
    try {
      emitter.emit(event, payload);
    } catch (error) {
      this.#logger?.warn({ event }, `a '${event}' listener threw (${error instanceof Error ? error.message : String(error)}); the operation went on`);
    }
  }
}

/** Where a part of an instance tells its facts: the instance's `ChannelViewEmitter`. */
export interface Teller<E extends string> {
  heard(event: E): boolean;
  tell(event: E, message: object): void;
}
