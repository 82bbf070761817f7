import { createRequire } from 'node:module';
import { problemResponse } from '../adapters/problem-response.js';
import type { ProblemBody } from '../adapters/problem.js';

type WsExceptionClass = new (error: object) => Error;

let wsException: WsExceptionClass | undefined;

// Nest renders only its own WsException to a gateway's client (anything else becomes
// "Internal server error"), and applies no global filter to gateways. @nestjs/websockets is
// loaded when a gateway needs it, so an HTTP-only app never has to install it.
function wsExceptionClass(): WsExceptionClass {
  wsException ??= (createRequire(import.meta.url)('@nestjs/websockets') as { WsException: WsExceptionClass }).WsException;
  return wsException;
}

/**
 * The `WsException` a guard throws in a gateway for `err`: the client's
 * `exception` event carries our problem body (`status`, `action`, `code`,
 * `title`, `detail`, `type`) as it is.
 */
export function wsRefusal(err: unknown, realm?: string): Error {
  const { body } = problemResponse(err, realm === undefined ? {} : { realm });
  return new (wsExceptionClass())({ ...body } satisfies ProblemBody);
}
