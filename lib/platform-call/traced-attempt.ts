import { performance } from 'node:perf_hooks';
import { isTransientCode } from '../errors/index.js';
import { platformCallChannel } from '../diagnostics/channels.js';
import type { PlatformCallMessage } from '../diagnostics/channels.js';
import { trace } from '../diagnostics/publish.js';
import type { Attempt, Call } from './call-state.js';
import { BadBody } from './platform-body.js';
import { sendAttempt } from './platform-http.js';
import type { PlatformRequest } from './platform-http.js';
import type { Transport } from './transport.js';

/**
 * One attempt told on the `platform-call` channel (only while it has subscribers): the same
 * attempt as {@link sendAttempt}, wrapped, its answer read into the message once it has ended.
 * `timeoutMs` bounds the attempt as there; `host` is the platform's `host[:port]`.
 */
export function tracedAttempt(transport: Transport, req: PlatformRequest, call: Call, timeoutMs: number, host: string): Promise<Attempt> {
  const message: PlatformCallMessage = {
    endpoint: req.endpoint, method: req.method, host, path: req.path, attempt: call.stats.attempts,
  };
  const started = performance.now();
  return trace(platformCallChannel, message, async () => {
    const attempt = await sendAttempt(transport, req, call, timeoutMs);
    message.durationMs = performance.now() - started;
    if (attempt.status !== undefined) {
      message.statusCode = attempt.status;
      if (attempt.body instanceof BadBody) message.outcome = 'fault';
      else {
        message.code = attempt.body.code;
        message.outcome = attempt.body.code === 0 ? 'ok' : isTransientCode(attempt.body.code) ? 'fault' : 'refused';
      }
    } else {
      message.outcome = attempt.timedOut ? 'timeout' : call.signal.aborted ? (call.signal.reason === 'deadline' ? 'timeout' : 'aborted') : 'fault';
    }
    return attempt;
  });
}
