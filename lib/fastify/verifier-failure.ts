import type { FastifyRequest } from 'fastify';
import type { PlatformError } from '../errors/index.js';

// `@fastify/auth` hands the error handler only the last verifier's error when every one
// fails; ours is kept beside the request so the game client still gets its action.
const failures = new WeakMap<FastifyRequest, PlatformError>();

/** Leaves the verifier's refusal of `request` for {@link verifierFailureOf}. */
export function rememberVerifierFailure(request: FastifyRequest, error: PlatformError): void {
  failures.set(request, error);
}

/** The refusal `verifyGameUser` threw for `request`, if it did. */
export function verifierFailureOf(request: FastifyRequest): PlatformError | undefined {
  return failures.get(request);
}
