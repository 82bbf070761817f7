import { performance } from 'node:perf_hooks';
import { DEMO } from '../../support/demo.js';
import { headerOf, jsonOf } from '../../support/raw-http.js';
import type { RawReply } from '../../support/raw-http.js';

/** The example app's answer for the demo player once the platform answers. */
export function expectPlayer(res: RawReply): void {
  expect([res.status, jsonOf(res)]).toEqual([200, { member_no: DEMO.player, guid: DEMO.playerGuid }]);
}

/** The answer of a protected route when the platform fails (the error table in docs/errors.md). */
export function expectRetryLater(res: RawReply, code?: number): void {
  expect(res.status).toBe(503);
  expect(headerOf(res, 'retry-after')).toMatch(/^\d+$/);
  expect(headerOf(res, 'www-authenticate')).toBeUndefined();
  expect(jsonOf(res)).toMatchObject({ status: 503, action: 'retry_later' });
  expect(jsonOf(res)?.code).toBe(code);
}

/** 500 contact_support with the platform's code, never a 401. */
export function expectContactSupport(res: RawReply, code: number): void {
  expect(res.status).toBe(500);
  expect(headerOf(res, 'www-authenticate')).toBeUndefined();
  expect(jsonOf(res)).toMatchObject({ status: 500, action: 'contact_support', code });
}

/**
 * Runs `fn` and returns its result with the time it took in ms: a lower bound (a timeout was
 * waited for) holds on any machine; an upper bound does not, and belongs in a bench.
 */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}
