import { watchLeave, type Leavable, type LeaveWatch } from './leave-watch.js';

/** A watch on one response: `signal` aborts when the client hangs up first. */
export type HangUpWatch = Pick<LeaveWatch, 'signal' | 'stop'>;

const CLOSE = ['close'] as const;

/**
 * Aborts the platform call made for a request when its client hangs up
 * before the answer (see {@link watchLeave}). `res` is Node's response, a
 * wrapper with `.raw` (Fastify's reply), or anything else (`null`,
 * `undefined`, a mock without events), for which there is nothing to watch:
 * `undefined`. A close after the response was sent is no hang-up.
 */
export function abortOnHangUp(res: unknown): HangUpWatch | undefined {
  if (res === null || typeof res !== 'object') return undefined;
  const raw = 'raw' in res ? res.raw : res;
  if (raw === null || typeof raw !== 'object') return undefined;
  const out = raw as Partial<Leavable> & { readonly writableEnded?: boolean };
  if (typeof out.on !== 'function' || typeof out.off !== 'function') return undefined;
  return watchLeave(out as Leavable, CLOSE, undefined, () => out.writableEnded === true);
}
