import type { FaultSpec } from '../../lib/emulator/index.js';
import type { PlatformControl } from './platform-control.js';

// Transient platform faults on E2, each consumed by one platform call.
const KINDS: FaultSpec[] = [
  { endpoint: 'E2', type: 'code', code: 50000 },
  { endpoint: 'E2', type: 'http5xx', status: 502 },
  { endpoint: 'E2', type: 'drop' },
  { endpoint: 'E2', type: 'garbage', variant: 'html' },
  { endpoint: 'E2', type: 'latency', latencyMs: 600 },
];

/**
 * Injects faults for `rate` of the requests sent since the last call (each
 * request makes about one E2 call), spread over time rather than in one burst.
 */
export class FaultInjector {
  readonly byType: Record<string, number> = {};
  #lastSent = 0;
  #owed = 0;
  #pending: Promise<void> = Promise.resolve();

  private readonly control: PlatformControl;
  private readonly rate: number;

  constructor(control: PlatformControl, rate: number) {
    this.control = control;
    this.rate = rate;
  }

  get total(): number {
    return Object.values(this.byType).reduce((a, b) => a + b, 0);
  }

  tick(sent: number): void {
    this.#owed += (sent - this.#lastSent) * this.rate;
    this.#lastSent = sent;
    const count = Math.floor(this.#owed);
    if (count === 0) return;
    this.#owed -= count;
    const faults = Array.from({ length: count }, () => KINDS[Math.floor(Math.random() * KINDS.length)]!);
    for (const f of faults) this.byType[f.type] = (this.byType[f.type] ?? 0) + 1;
    this.#pending = this.#pending.then(() => this.control.injectFaults(faults)).catch(() => undefined);
  }

  settled(): Promise<void> {
    return this.#pending;
  }
}
