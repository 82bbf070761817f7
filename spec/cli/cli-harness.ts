import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { runCli } from '../../lib/cli/run-cli.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import type { CliIo } from '../../lib/cli/io.js';

/** What one in-process CLI run wrote and returned. */
export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runInProcess}. */
export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Text piped to stdin; absent: stdin is a terminal (nothing piped). */
  stdin?: string;
  /** Pretend stderr is a terminal (spinner). */
  stderrTTY?: boolean;
}

/** Every output of every run, for the final "no secret printed" scan. */
export const transcript: string[] = [];

function capture(isTTY: boolean): { stream: CliIo['stdout']; text: () => string } {
  const chunks: string[] = [];
  return { stream: { write: (chunk: string) => chunks.push(chunk), isTTY }, text: () => chunks.join('') };
}

/** Runs the CLI in-process with captured stdout/stderr. */
export async function runInProcess(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  const stdout = capture(false);
  const stderr = capture(options.stderrTTY === true);
  const stdin: CliIo['stdin'] = options.stdin === undefined
    ? Object.assign(Readable.from([]), { isTTY: true })
    : Object.assign(Readable.from([options.stdin]), { isTTY: false });
  const status = await runCli(argv, { stdout: stdout.stream, stderr: stderr.stream, stdin, env: options.env ?? {} });
  const result = { status, stdout: stdout.text(), stderr: stderr.text() };
  transcript.push(result.stdout, result.stderr);
  return result;
}

/** The single JSON object a `--json` run wrote on stdout. */
export function jsonOf(result: CliResult): Record<string, unknown> & { ok: boolean; error?: Record<string, unknown> } {
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as Record<string, unknown> & { ok: boolean; error?: Record<string, unknown> };
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Environment pointing at an emulator with the default seed's Live client. */
export function emulatorEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PLATFORM_BASE_URL: url,
    PLATFORM_CLIENT_ID: 'demo-client',
    PLATFORM_CLIENT_SECRET: 'demo-secret',
    PLATFORM_GAME_ID: 'demo-game',
    PLATFORM_TIMEOUT_MS: '1000',
    ...extra,
  };
}

/** The API token the emulator hands the demo client now (to look for it in the transcript). */
export async function demoApiToken(emulator: Emulator): Promise<string> {
  const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
  try {
    return await client.provider.getToken();
  } finally {
    void client.close();
  }
}
