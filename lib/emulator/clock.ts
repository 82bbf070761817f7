import { EmulatorInputError } from './errors.js';

/**
 * Emulator time: real time plus an offset that only moves forward. A frozen clock starts at the
 * real time and moves only with {@link EmulatorClock.advance} (exact boundary tests).
 */
export class EmulatorClock {
  private offsetMs = 0;
  private readonly frozenAt: number | null;

  constructor(mode: 'real' | 'frozen' = 'real') {
    this.frozenAt = mode === 'frozen' ? Date.now() : null;
  }

  now(): number {
    return (this.frozenAt ?? Date.now()) + this.offsetMs;
  }

  advance(ms: number): number {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw new EmulatorInputError('advance_ms must be a finite number >= 0');
    }
    this.offsetMs += ms;
    return this.now();
  }
}
