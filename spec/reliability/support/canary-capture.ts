import { inspect } from 'node:util';
import { renderings } from '../../support/client-harness.js';

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Everything the process shows while a canary run is under way: console
 * calls, stdout/stderr writes, unhandled rejections, plus whatever the test
 * adds (responses, errors, events, log lines). `hits()` names the canaries
 * found, by their first characters only.
 */
export class CanaryCapture {
  readonly texts: string[] = [];
  readonly canaries = new Set<string>();
  unhandledRejections = 0;
  readonly #restore: Array<() => void> = [];

  start(): void {
    for (const method of CONSOLE_METHODS) {
      const original = console[method];
      console[method] = (...args: unknown[]) => {
        this.texts.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 8, showHidden: true }))).join(' '));
      };
      this.#restore.push(() => {
        console[method] = original;
      });
    }
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write;
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        this.texts.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
        return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
      });
      this.#restore.push(() => {
        stream.write = original;
      });
    }
    const onRejection = (reason: unknown): void => {
      this.unhandledRejections += 1;
      this.add(reason);
    };
    process.on('unhandledRejection', onRejection);
    this.#restore.push(() => process.off('unhandledRejection', onRejection));
  }

  stop(): void {
    for (const restore of this.#restore.splice(0).reverse()) restore();
  }

  /** Adds every rendering of a value: inspect (hidden fields too), JSON, message, stack. */
  add(value: unknown): void {
    if (typeof value === 'string') this.texts.push(value);
    else this.texts.push(...renderings(value));
  }

  canary(value: string): string {
    this.canaries.add(value);
    return value;
  }

  /** Canaries found anywhere in the captured text, shown by their first 8 characters. */
  hits(): string[] {
    const all = this.texts.join('\n');
    return [...this.canaries].filter((c) => all.includes(c)).map((c) => `${c.slice(0, 8)}...`);
  }
}
