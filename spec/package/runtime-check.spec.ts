import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { MINIMUM_NODE_MAJOR, unsupportedRuntime } from '../../lib/runtime-check.js';
import { startScriptArgs } from '../support/app-process.js';
import { transpileLib } from '../support/compile-snippets.js';

// On a Node.js older than the package supports, every entry point (and the CLI, and the example
// app started by hand) fails at once with a sentence naming the requirement, instead of starting
// and answering 503s or 500s. The old Node is the machine's /usr/bin/node (CI installs Node 20
// and names it in PGP_OLD_NODE); a machine without one skips the runs, not the rest.
const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  exports: Record<string, string | { default: string }>;
  bin: Record<string, string>;
};

function versionOf(node: string): string | undefined {
  try {
    return execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

const OLD_NODE = process.env.PGP_OLD_NODE ?? '/usr/bin/node';
const OLD_VERSION = versionOf(OLD_NODE);
const hasOldNode = OLD_VERSION !== undefined && Number(OLD_VERSION.split('.')[0]) < MINIMUM_NODE_MAJOR;
const REFUSAL = `passport-game-platform needs Node.js ${MINIMUM_NODE_MAJOR} or later (this is ${OLD_VERSION})`;
/** Each entry point's built file, relative to dist/ (and to the transpiled lib/). */
const ENTRIES = Object.entries(pkg.exports)
  .filter(([name]) => name !== './package.json')
  .map(([name, target]) => [name, (typeof target === 'string' ? target : target.default).replace(/^\.\/dist\//, '')] as const);

describe('the supported runtime', () => {
  it('is the one package.json engines names', () => {
    expect(pkg.engines.node).toBe(`>=${MINIMUM_NODE_MAJOR}`);
  });

  it('is the first module every entry point and the CLI import (whatever Node runs the tests)', () => {
    const sources = [...ENTRIES.map(([, file]) => path.join('lib', file.replace(/\.js$/, '.ts'))), path.join('lib', 'cli', 'main.ts')];
    const first = sources.map((file) => ({ file, first: /^(?:import|export)\b[^;]*?['"]([^'"]+)['"]/m.exec(readFileSync(path.join(ROOT, file), 'utf8'))?.[1] }));
    expect(first.filter(({ first: specifier }) => !specifier?.endsWith('/runtime-check.js'))).toEqual([]);
  });

  it('refuses an older Node by name, never Bun or Deno (they report the Node version they emulate)', () => {
    expect(unsupportedRuntime({ node: '20.20.2', bun: undefined, deno: false })).toBe(`passport-game-platform needs Node.js ${MINIMUM_NODE_MAJOR} or later (this is 20.20.2)`);
    expect(unsupportedRuntime({ node: '18.20.0', bun: '1.4.5', deno: false })).toBeUndefined();
    expect(unsupportedRuntime({ node: '20.11.1', bun: undefined, deno: true })).toBeUndefined();
    expect(unsupportedRuntime({ node: `${MINIMUM_NODE_MAJOR}.0.0`, bun: undefined, deno: false })).toBeUndefined();
  });
});

(hasOldNode ? describe : describe.skip)(`on Node ${OLD_VERSION ?? '(none older than the minimum)'}`, () => {
  const out = path.join(ROOT, 'spec', 'output', `runtime-check-${process.pid}`);
  beforeAll(() => {
    mkdirSync(out, { recursive: true });
    // The JavaScript the build emits, inside the repository so the dependencies resolve.
    transpileLib(out);
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  async function refusedAt(file: string, args: string[] = []): Promise<{ code: unknown; stderr: string }> {
    return run(OLD_NODE, [file, ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 30_000 }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (err: { code?: unknown; stderr?: string }) => ({ code: err.code, stderr: err.stderr ?? '' }),
    );
  }

  it.each(ENTRIES)('importing %s fails at once with the requirement', async (_name, file) => {
    const { code, stderr } = await refusedAt(path.join(out, file));
    expect({ failed: code !== 0, named: stderr.includes(REFUSAL) }).toEqual({ failed: true, named: true });
  });

  it('the CLI fails at once with the requirement', async () => {
    expect(Object.values(pkg.bin)).toEqual(['./bin/passport-game-platform.js']);
    const { code, stderr } = await refusedAt(path.join(out, 'cli', 'main.js'), ['emulator', '--help']);
    expect({ failed: code !== 0, named: stderr.includes(REFUSAL) }).toEqual({ failed: true, named: true });
  });

  it.each([
    ['with the arguments npm start gives node', startScriptArgs()],
    ['by hand through tsx', ['--import', 'tsx', 'example-app/server.ts']],
  ])('the example app started %s exits non-zero at start with the requirement', async (_how, args) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PLATFORM_|REDIS_|PORT$)/.test(name)));
    const child = spawn(OLD_NODE, args, { cwd: ROOT, env: { ...env, NODE_OPTIONS: '', PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    child.stdout.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    clearTimeout(timer);
    expect({ code, named: stderr.includes(REFUSAL) }).toEqual({ code: 1, named: true });
  }, 40_000);
});
