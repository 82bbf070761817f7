import { createRequire } from 'node:module';
import { problemResponse, type ProblemBody } from '../problem/index.js';

type WsExceptionClass = new (error: object) => Error;

let wsException: WsExceptionClass | undefined;

// Nest renders only its own WsException to a gateway's client (anything else becomes
// "Internal server error", since its filter checks `instanceof`), and applies no global filter
// to gateways. So the class must be the very one the app loaded: import() shares the app's
// module instance whether it runs Nest 12 (ESM) or Nest 11 (CommonJS). The import starts when
// this adapter loads and is never awaited at load, so `require()` of this entry point still works
// and an HTTP-only app without @nestjs/websockets is unaffected.
const loading: Promise<void> = import('@nestjs/websockets').then(
  (module: { WsException: WsExceptionClass }) => {
    wsException = module.WsException;
  },
  () => undefined,
);

/** Resolves once `WsException` is loaded (or known to be missing); gateways await it before refusing. */
export function wsExceptionLoaded(): Promise<void> {
  return loading;
}

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
