import { performance } from 'node:perf_hooks';
import type { Clock } from '../types.js';

/**
 * A clock for durations (breaker open time, cache TTL, back-offs, log
 * throttles): it never moves backwards. Token lifetimes the platform gives
 * are wall-clock times and stay on `config.clock`.
 */
export interface MonotonicClock {
  now(): number;
}

/** The process's monotonic clock. */
export const processMonotonic: MonotonicClock = Object.freeze({ now: () => performance.now() });

const derived = new WeakMap<Clock, MonotonicClock>();

/**
 * The monotonic clock that goes with `clock`: `performance.now()` for the
 * system clock; the clock's own `monotonicNow()` when it has one; for any
 * other injected clock (tests, the emulator's), a clock that
 * follows it forward only, so a test can move durations by advancing it, and
 * a backward step of the wall clock shortens or lengthens no duration.
 * One per clock object, shared by every configuration built on it.
 */
export function monotonicFor(clock: Clock, system: Clock): MonotonicClock {
  if (clock === system) return processMonotonic;
  const known = derived.get(clock);
  if (known !== undefined) return known;
  if (typeof clock.monotonicNow === 'function') {
    const own: MonotonicClock = Object.freeze({ now: () => (clock.monotonicNow as () => number).call(clock) });
    derived.set(clock, own);
    return own;
  }
  let last = clock.now();
  // Starts at the clock's own reading (never 0, which some caches read as "no time").
  let elapsed = last;
  const mono: MonotonicClock = Object.freeze({
    now(): number {
      const wall = clock.now();
      if (wall > last) elapsed += wall - last;
      last = wall;
      return elapsed;
    },
  });
  derived.set(clock, mono);
  return mono;
}
