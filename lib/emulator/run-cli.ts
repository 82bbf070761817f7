import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from './default-seed.js';
import { EmulatorInputError, EmulatorSeedError } from './errors.js';
import { startEmulator } from './start-emulator.js';
import { cliBanner } from './cli-banner.js';
import type { Emulator, EmulatorOptions } from './types.js';

/** Where {@link runEmulatorCli} writes and which signals stop it. */
export interface EmulatorCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Source of SIGINT/SIGTERM; default `process`. */
  signals?: { on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown; off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown };
  /** Called once the emulator listens (tests, the admin CLI). */
  onReady?: (emulator: Emulator) => void;
}

/** Usage text of the standalone emulator. */
export const EMULATOR_USAGE = `Usage: npm run emulator -- [options]
  --port <n>              listen port (default 4010; 0 = any free port)
  --host <name>           listen host (default 127.0.0.1)
  --seed <file.json>      clients and members (default: the built-in demo seed)
  --environment <env>     live | sandbox (default live)
  --identifiers <mode>    number | string (default number)
  --error-status <style>  platform | ok | http (default platform)
  --cookie-name <name>    web token cookie name (default SUAT)
  -h, --help              show this help
`;

class UsageError extends Error {}

function choice<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || allowed.includes(value as T)) return value as T | undefined;
  throw new UsageError(`--${flag} must be ${allowed.join(' or ')}, got "${value}"`);
}

async function optionsFrom(argv: readonly string[]): Promise<EmulatorOptions | 'help'> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' }, host: { type: 'string' }, seed: { type: 'string' },
        environment: { type: 'string' }, identifiers: { type: 'string' },
        'error-status': { type: 'string' }, 'cookie-name': { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  const port = values.port ?? '4010';
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got "${port}"`);
  let seed: unknown = DEFAULT_SEED;
  if (values.seed !== undefined) {
    let text: string;
    try {
      text = await readFile(values.seed, 'utf8');
    } catch (err) {
      throw new UsageError(`--seed: cannot read ${values.seed} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    try {
      seed = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`--seed: ${values.seed} is not valid JSON (${(err as Error).message})`);
    }
  }
  return {
    port: Number(port),
    host: values.host,
    seed: seed as EmulatorOptions['seed'],
    environment: choice('environment', values.environment, ['live', 'sandbox']),
    identifiers: choice('identifiers', values.identifiers, ['number', 'string']),
    errorStatus: choice('error-status', values['error-status'], ['platform', 'ok', 'http']),
    webCookieName: values['cookie-name'],
  };
}

/**
 * Runs the standalone emulator: parses flags, starts it, prints its URL, the seeded credentials
 * and a ready `curl`, and stays up until SIGINT/SIGTERM. Resolves with the exit code: 0 after a
 * clean stop, 2 for bad flags or seed (one clear line, no stack), 1 when it cannot listen.
 *
 * @example
 * ```ts
 * process.exitCode = await runEmulatorCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runEmulatorCli(argv: readonly string[], io: EmulatorCliIo): Promise<number> {
  let emulator: Emulator;
  try {
    const options = await optionsFrom(argv);
    if (options === 'help') {
      io.stdout.write(EMULATOR_USAGE);
      return 0;
    }
    emulator = await startEmulator(options);
    io.stdout.write(cliBanner(emulator, options.seed ?? DEFAULT_SEED));
  } catch (err) {
    const usage = err instanceof UsageError || err instanceof EmulatorInputError || err instanceof EmulatorSeedError;
    io.stderr.write(`emulator: ${(err as Error).message}\n${usage ? EMULATOR_USAGE : ''}`);
    return usage ? 2 : 1;
  }
  io.onReady?.(emulator);
  const signals = io.signals ?? process;
  await new Promise<void>((resolve) => {
    // Ctrl+C reaches this process twice (from the terminal and relayed by tsx/npm): the listener
    // stays until the close is done, so the second signal cannot kill it half-way.
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      void emulator.close().then(() => {
        signals.off('SIGINT', stop);
        signals.off('SIGTERM', stop);
        resolve();
      });
    };
    signals.on('SIGINT', stop);
    signals.on('SIGTERM', stop);
  });
  io.stdout.write('emulator stopped\n');
  return 0;
}
