import { percentile } from './stats.js';

/** Response times in ms with sub-ms precision (autocannon's own histogram keeps whole ms). */
export class LatencyRecorder {
  #values = new Float64Array(1 << 16);
  #count = 0;

  add(ms: number): void {
    if (this.#count === this.#values.length) {
      const bigger = new Float64Array(this.#values.length * 2);
      bigger.set(this.#values);
      this.#values = bigger;
    }
    this.#values[this.#count] = ms;
    this.#count += 1;
  }

  get count(): number {
    return this.#count;
  }

  /** Percentiles (0-100) of what was recorded, in ms. */
  percentiles(ps: readonly number[]): number[] {
    const sorted = this.#values.slice(0, this.#count).sort();
    return ps.map((p) => percentile(sorted, p));
  }

  mean(): number {
    let sum = 0;
    for (let i = 0; i < this.#count; i += 1) sum += this.#values[i]!;
    return this.#count === 0 ? Number.NaN : sum / this.#count;
  }
}
