import type { TracingChannel } from 'node:diagnostics_channel';
import type { ErrorKind } from '../errors/index.js';
import type { VerifyOutcome } from './channels.js';

/**
 * `tracingChannel.tracePromise` without its `result`: Node's version puts the
 * promise's value in the context, and ours may be an API token or a platform
 * body holding one. Events, order and async context are the same: `start`
 * (around the call, with any bound stores), `end`, then `error` on a
 * rejection, `asyncStart` and `asyncEnd`. Callers check `hasSubscribers`
 * first, so nothing is built when nobody listens.
 */
export function trace<C extends object, T>(channel: TracingChannel<C, C>, context: C, work: () => Promise<T>): Promise<T> {
  const withError = context as C & { error?: unknown };
  return channel.start.runStores(context, () => {
    let promise: Promise<T>;
    try {
      promise = work();
    } catch (error) {
      withError.error = error;
      channel.error.publish(context);
      channel.end.publish(context);
      throw error;
    }
    channel.end.publish(context);
    return promise.then(
      (value) => {
        channel.asyncStart.publish(context);
        channel.asyncEnd.publish(context);
        return value;
      },
      (error: unknown) => {
        withError.error = error;
        channel.error.publish(context);
        channel.asyncStart.publish(context);
        channel.asyncEnd.publish(context);
        throw error;
      },
    );
  });
}

/** The outcome of a verification that failed, from the error's kind. */
export function verifyOutcomeFor(kind: ErrorKind | undefined, aborted: boolean): VerifyOutcome {
  if (aborted) return 'aborted';
  if (kind === 'invalid_token' || kind === 'invalid_request') return 'invalid_token';
  if (kind === 'device_not_registered') return 'device_not_registered';
  if (kind === 'configuration') return 'server_error';
  return 'unavailable';
}
