import type { BenchOptions } from './options.js';
import type { BenchPlatform } from './platform.js';

/** Wall-clock budget of the whole run. */
export class Deadline {
  readonly #endsAt: number;

  constructor(seconds: number) {
    this.#endsAt = performance.now() + seconds * 1000;
  }

  remainingS(): number {
    return (this.#endsAt - performance.now()) / 1000;
  }

  /** True when `seconds` more still fit. */
  allows(seconds: number): boolean {
    return this.remainingS() > seconds;
  }
}

/** What every stage gets. */
export interface StageContext {
  options: BenchOptions;
  platform: BenchPlatform;
  deadline: Deadline;
  profileDir: string;
  log(line: string): void;
  /** Seconds the stages after the current one are expected to need (kept free by its deadline checks). */
  reserveS: number;
  /** Records that something was skipped or cut short. */
  note(line: string): void;
}
