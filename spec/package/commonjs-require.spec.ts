import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = process.cwd();

// Node >= 20.19 can require() an ES module graph without top-level await.
// Build the package as it is published (dist/ + the exports map) and load it,
// by name, from a CommonJS file inside the repository (package self-reference).
describe('the built package', () => {
  beforeAll(async () => {
    await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root });
  }, 120_000);

  it('can be required from a CommonJS app, main entry and emulator subpath', async () => {
    const dir = join(root, 'spec', 'output');
    await mkdir(dir, { recursive: true });
    const script = join(dir, 'require-check.cjs');
    await writeFile(script, `
      const pkg = require('passport-game-platform');
      const emulator = require('passport-game-platform/emulator');
      process.stdout.write(JSON.stringify({
        client: typeof pkg.PlatformClient,
        provider: typeof pkg.ApiTokenProvider,
        strategy: typeof pkg.PlatformBearerStrategy,
        middleware: typeof pkg.requireGameUser,
        handler: typeof pkg.platformErrorHandler,
        error: typeof pkg.PlatformError,
        emulator: typeof emulator.startEmulator,
        loadsEmulator: Object.keys(pkg).includes('startEmulator'),
      }));
    `);
    const { stdout } = await run(process.execPath, [script], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } });
    expect(JSON.parse(stdout)).toEqual({
      client: 'function',
      provider: 'function',
      strategy: 'function',
      middleware: 'function',
      handler: 'function',
      error: 'function',
      emulator: 'function',
      loadsEmulator: false,
    });
  }, 60_000);
});
