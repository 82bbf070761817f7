import { sendCode, type PlatformRoute } from './platform-reply.js';
import { sendHtml, sendText, type Exchange } from './http-io.js';
import type { EmulatorContext } from './context.js';
import type { FaultSpec, GarbageVariant } from './fault-queue.js';

const GARBAGE: Record<GarbageVariant, string> = {
  text: 'Service Temporarily Unavailable',
  html: '<html><body><h1>Maintenance</h1></body></html>',
  'json-without-code': '{"message":"ok","result":true}',
  'truncated-json': '{"code":0,"message":"succ',
  empty: '',
};

const REASONS: Record<number, string> = { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/** Timers of latency faults, cleared when the emulator closes. */
export type TimerSet = Set<NodeJS.Timeout>;

/** Requests held by a `hold` fault: each answers normally when called. */
export type HeldSet = Set<() => void>;

/**
 * Plays a fault on a request. `proceed` answers the request normally (after a `latency` fault).
 * `drop` and `reset-reused` destroy the socket; `hang` leaves the request open until close();
 * `hold` until the test releases it.
 */
export function applyFault(x: Exchange, ctx: EmulatorContext, fault: FaultSpec, route: PlatformRoute, proceed: () => void, pending: { timers: TimerSet; held: HeldSet }): void {
  const { timers, held } = pending;
  x.entry.fault = fault.type;
  switch (fault.type) {
    case 'latency': {
      // A caller that hangs up meanwhile gets no answer: its log entry keeps `status: null`.
      const gone = (): void => {
        clearTimeout(timer);
        timers.delete(timer);
      };
      const timer = setTimeout(() => {
        timers.delete(timer);
        x.res.off('close', gone);
        proceed();
      }, fault.latencyMs);
      timers.add(timer);
      x.res.once('close', gone);
      return;
    }
    case 'code':
      return sendCode(x, route, ctx.options.errorStatus, fault.code, fault.status, fault.message);
    case 'http5xx': {
      const status = fault.status ?? 502;
      const reason = REASONS[status] ?? 'Server Error';
      return sendHtml(x, status, `<html><head><title>${status} ${reason}</title></head><body><center><h1>${status} ${reason}</h1></center><hr><center>nginx</center></body></html>`);
    }
    case 'garbage':
      return sendText(x, 200, GARBAGE[fault.variant ?? 'text'], 'application/json; charset=utf-8');
    case 'drop':
    case 'reset-reused':
      x.req.socket.destroy();
      return;
    case 'hang':
      return;
    case 'hold': {
      // As with latency, a caller gone meanwhile gets no answer.
      const release = (): void => {
        held.delete(release);
        x.res.off('close', gone);
        proceed();
      };
      const gone = (): void => void held.delete(release);
      held.add(release);
      x.res.once('close', gone);
      return;
    }
  }
}
