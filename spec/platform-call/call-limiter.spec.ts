import { CallLimiter } from '../../lib/platform-call/index.js';
import type { PlatformError } from '../../lib/errors/index.js';

describe('CallLimiter', () => {
  it('caps calls in flight, queues the excess in order and fails fast beyond the queue', async () => {
    const limiter = new CallLimiter(2, 1);
    const signal = new AbortController().signal;
    await limiter.acquire(signal, 'E2');
    await limiter.acquire(signal, 'E2');
    let granted = false;
    const third = limiter.acquire(signal, 'E2').then(() => {
      granted = true;
    });
    const fourth = await limiter.acquire(signal, 'E2').catch((error: PlatformError) => error);
    expect((fourth as PlatformError).message).toContain('too many calls in flight');
    expect((fourth as PlatformError).status).toBe(503);
    expect([limiter.active, limiter.queued, granted]).toEqual([2, 1, false]);
    limiter.release();
    await third;
    expect([limiter.active, limiter.queued, granted]).toEqual([2, 0, true]);
    limiter.release();
    limiter.release();
    expect(limiter.active).toBe(0);
  });

  it('drops a waiter whose budget ends, with a timeout error', async () => {
    const limiter = new CallLimiter(1, 5);
    const free = new AbortController().signal;
    await limiter.acquire(free, 'E3');
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal, 'E3').catch((error: PlatformError) => error);
    expect(limiter.queued).toBe(1);
    controller.abort();
    const error = (await waiting) as PlatformError;
    expect([error.kind, limiter.queued]).toEqual(['platform_unavailable', 0]);
    expect(error.message).toContain('did not answer in time');
  });
});
