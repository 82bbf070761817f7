import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

// `npx passport-game-platform --help` right after `npm ci` in a clone: the bin is a small JS
// launcher that runs the TypeScript sources through tsx when lib/ is there (no build needed),
// and dist/ in the installed package (spec/package-install checks that side).
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the passport-game-platform command in a clone', () => {
  it('is a plain JS launcher shipped with the package', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
    expect(manifest.bin).toEqual({ 'passport-game-platform': './bin/passport-game-platform.js' });
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'bin', 'LICENSE']));
    expect(readFileSync(path.join(ROOT, 'bin', 'passport-game-platform.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it('prints its help without a build', async () => {
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'bin', 'passport-game-platform.js'), '--help'], {
      cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(stdout).toMatch(/^Usage: passport-game-platform <command>/);
  }, 30_000);
});
