import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transpileLib } from '../support/compile-snippets.js';

const run = promisify(execFile);
const root = process.cwd();

// Node >= 20.19 can require() an ES module graph without top-level await.
// The package as it is published: its manifest (name and exports map) over
// dist/, the JavaScript the build emits from lib/ (types are the typecheck's
// and the package-install specs' business). A CommonJS file inside it loads it
// by name (package self-reference); its dependencies resolve from the
// repository's node_modules, as an installed package's would.
describe('the built package', () => {
  const dir = join(root, 'spec', 'output', `commonjs-${process.pid}`);
  beforeAll(async () => {
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: manifest.name, type: manifest.type, exports: manifest.exports }));
    transpileLib(join(dir, 'dist'));
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('can be required from a CommonJS app, main entry and emulator subpath', async () => {
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
    const { stdout } = await run(process.execPath, [script], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } });
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
