import { performance } from 'node:perf_hooks';
import { isPlatformError } from '../errors/index.js';
import { tokenKey } from '../hashing/fingerprint.js';
import { verifyChannel } from '../diagnostics/channels.js';
import type { VerifyMessage } from '../diagnostics/channels.js';
import { trace, verifyOutcomeFor } from '../diagnostics/publish.js';
import { isAbortedError } from '../platform-call/aborted.js';
import type { Abortable } from '../platform-call/deadline-signal.js';
import type { GameUser } from '../types.js';
import type { TokenKind, TokenVerification } from './token-verification.js';

/**
 * One verification told on the `verify` channel (called only while it has
 * subscribers): its outcome, code, duration and whether the cache answered.
 * The token is hashed once: its fingerprint is the first 8 hex digits of the
 * digest the verification then uses.
 */
export function traceVerification(verification: TokenVerification, kind: TokenKind, token: string, signal: Abortable | undefined): Promise<GameUser> {
  const digest = typeof token === 'string' ? tokenKey(token) : undefined;
  const message: VerifyMessage = { kind, tokenFingerprint: digest === undefined ? 'none' : digest.slice(0, 8) };
  const started = performance.now();
  return trace(verifyChannel, message, async () => {
    try {
      const user = await verification.verifyToken(kind, token, signal, message, digest);
      message.outcome = 'ok';
      return user;
    } catch (error) {
      const failure = isPlatformError(error) ? error : undefined;
      message.outcome = verifyOutcomeFor(failure?.kind, isAbortedError(error));
      if (failure?.code !== undefined) message.code = failure.code;
      throw error;
    } finally {
      message.durationMs = performance.now() - started;
    }
  });
}
