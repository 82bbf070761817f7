import { jest } from '@jest/globals';
import { configWith, resolvePlatformConfig } from '../../lib/config/index.js';
import type { PlatformConfig } from '../../lib/config/index.js';
import { CircuitBreaker, isCircuitOpenError } from '../../lib/platform-call/index.js';
import type { CircuitEvent } from '../../lib/platform-call/index.js';
import { isPlatformError } from '../../lib/errors/index.js';
import { manualClock } from './support/reliability-app.js';

function breaker(threshold = 3, openMs = 1000) {
  const clock = manualClock();
  const events: CircuitEvent[] = [];
  const cb = new CircuitBreaker(threshold, openMs, clock, (e) => events.push(e));
  const fail = (): void => cb.record(cb.admit('E2'), 'failure', 'E2');
  const succeed = (): void => cb.record(cb.admit('E2'), 'success', 'E2');
  const refusal = (): unknown => {
    try {
      cb.admit('E2');
    } catch (error) {
      return error;
    }
    return undefined;
  };
  return { cb, clock, events, fail, succeed, refusal };
}

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures and then refuses calls with a 503', () => {
    const b = breaker(3);
    b.fail();
    b.fail();
    expect(b.cb.stateFor()).toBe('closed');
    b.fail();
    expect(b.cb.stateFor()).toBe('open');
    const error = b.refusal();
    expect(isCircuitOpenError(error)).toBe(true);
    expect(isPlatformError(error) && [error.status, error.kind, error.action]).toEqual([503, 'platform_unavailable', 'retry_later']);
    expect((error as Error).message).toContain('calls are paused');
    expect(b.events).toEqual([{ state: 'open', previous: 'closed', failures: 3, endpoint: 'E2', openUntil: expect.any(Number) }]);
  });

  it('counts only consecutive failures: a success resets, an ignored call changes nothing', () => {
    const b = breaker(3);
    for (let i = 0; i < 5; i += 1) {
      b.fail();
      b.fail();
      b.succeed();
      b.cb.record(b.cb.admit('E2'), 'ignored', 'E2');
    }
    expect([b.cb.stateFor(), b.events]).toEqual(['closed', []]);
  });

  it('turns half-open when the open period is up (judged on read), lets one probe through, and closes on its success', () => {
    const b = breaker(1, 1000);
    b.fail();
    b.clock.advance(999);
    expect(b.refusal()).toBeDefined();
    b.clock.advance(1);
    expect(b.cb.stateFor()).toBe('half-open');
    const probe = b.cb.admit('E2');
    expect(probe.probe).toBe(true);
    expect(isCircuitOpenError(b.refusal())).toBe(true); // one probe at a time
    b.cb.record(probe, 'success', 'E2');
    expect(b.cb.stateFor()).toBe('closed');
    expect(b.events.map((e) => `${e.previous}->${e.state}`)).toEqual(['closed->open', 'open->half-open', 'half-open->closed']);
    b.succeed();
  });

  it('reopens for another period when the probe fails; an ignored probe leaves room for the next', () => {
    const b = breaker(1, 1000);
    b.fail();
    b.clock.advance(1000);
    b.cb.record(b.cb.admit('E2'), 'ignored', 'E2');
    const probe = b.cb.admit('E2');
    b.cb.record(probe, 'failure', 'E2');
    expect(b.cb.stateFor()).toBe('open');
    b.clock.advance(999);
    expect(b.refusal()).toBeDefined();
    b.clock.advance(1);
    b.succeed();
    expect(b.events.map((e) => e.state)).toEqual(['open', 'half-open', 'open', 'half-open', 'closed']);
  });

  it('ignores the late outcome of calls admitted before it opened', () => {
    const b = breaker(2, 1000);
    const early = b.cb.admit('E2');
    b.fail();
    b.fail();
    b.cb.record(early, 'success', 'E2');
    expect(b.cb.stateFor()).toBe('open');
  });

  it('replaces a probe that never reported after another open period', () => {
    const b = breaker(1, 1000);
    b.fail();
    b.clock.advance(1000);
    b.cb.admit('E2'); // never recorded
    b.clock.advance(999);
    expect(b.refusal()).toBeDefined();
    b.clock.advance(1);
    expect(b.cb.admit('E2').probe).toBe(true);
  });

  it('sets no timer, so a long open period cannot overflow (Node timers over 24.8 days fire at once)', () => {
    const spy = jest.spyOn(global, 'setTimeout');
    try {
      const b = breaker(1, 300_000);
      b.fail();
      b.clock.advance(300_000);
      b.succeed();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the circuitBreaker option', () => {
  const base: PlatformConfig = { environment: 'live', clientId: 'c', clientSecret: 's', gameId: 'G' };
  const messageOf = (circuitBreaker: unknown): string => {
    try {
      resolvePlatformConfig({ ...base, circuitBreaker } as PlatformConfig);
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      return (error as Error).message;
    }
    throw new Error('expected a TypeError');
  };

  it('is on by default (10 failures, 5 s), can be tuned, and turned off with false', () => {
    expect(resolvePlatformConfig(base).circuitBreaker).toEqual({ failureThreshold: 10, openMs: 5000 });
    expect(resolvePlatformConfig({ ...base, circuitBreaker: { openMs: 2000 } }).circuitBreaker).toEqual({ failureThreshold: 10, openMs: 2000 });
    expect(resolvePlatformConfig({ ...base, circuitBreaker: false }).circuitBreaker).toBeUndefined();
    const tuned = resolvePlatformConfig({ ...base, circuitBreaker: { failureThreshold: 3 } });
    expect(configWith(tuned, { timeoutMs: 100 }).circuitBreaker).toEqual({ failureThreshold: 3, openMs: 5000 });
    expect(configWith(resolvePlatformConfig({ ...base, circuitBreaker: false }), {}).circuitBreaker).toBeUndefined();
  });

  it.each<[unknown, string]>([
    [true, 'passport-game-platform: "circuitBreaker" must be an object or false'],
    ['on', 'passport-game-platform: "circuitBreaker" must be an object or false'],
    [{ failureThreshold: 0 }, 'passport-game-platform: "circuitBreaker.failureThreshold" must be an integer between 1 and 1000'],
    [{ failureThreshold: 2.5 }, 'passport-game-platform: "circuitBreaker.failureThreshold" must be an integer between 1 and 1000'],
    [{ openMs: 99 }, 'passport-game-platform: "circuitBreaker.openMs" must be an integer between 100 and 300000'],
    [{ openMs: 2 ** 31 }, 'passport-game-platform: "circuitBreaker.openMs" must be an integer between 100 and 300000'],
  ])('rejects %j naming the option', (value, message) => {
    expect(messageOf(value)).toBe(message);
  });
});
