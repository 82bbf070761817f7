import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compileApp, env, packPackage, run, type PackedPackage } from './packed-package.js';

// The packed package as an Express user gets it: installed from its tarball into an Express 4 app
// and an Express 5 app, each with a program that uses the root, /emulator and /testkit entries,
// requireGameUser, the Passport strategy and the core; compiled under strict WITHOUT skipLibCheck
// (our declarations must pull no @types/koa, which clashes with Express 5's types), then run.
// Also: the `passport-game-platform` command of the installed package.
//
// To add an app: a folder under spec/package-install/apps/ with an app.ts, and one entry below.

interface Answer { status: number; type: string | null; body: Record<string, unknown> }
interface AppResult { valid: Answer; device: Answer; none: Answer }

let packed: PackedPackage;

beforeAll(async () => {
  packed = await packPackage('pgp-express-types-');
}, 180_000);

afterAll(async () => {
  await packed?.remove();
});

const APPS_TO_BUILD: [string, Record<string, string>, Record<string, string>][] = [
  ['Express 4', { express: '^4.21.0', passport: '^0.7.0' }, { '@types/express': '^4.17.21', '@types/passport': '^1.0.17', '@types/node': '^22.0.0' }],
  ['Express 5', { express: '^5.1.0', passport: '^0.7.0' }, { '@types/express': '^5.0.0', '@types/passport': '^1.0.17', '@types/node': '^22.0.0' }],
];

describe('the packed package in a TypeScript Express app (strict, no skipLibCheck)', () => {
  it.each(APPS_TO_BUILD)('%s: installs, compiles, answers, and pulls no @types/koa', async (name, dependencies, devDependencies) => {
    const dir = await packed.install(name.replace(' ', '').toLowerCase(), 'express-types', dependencies, devDependencies);
    const lock = JSON.parse(await readFile(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    expect(Object.keys(lock.packages).filter((p) => /@types\/(koa|passport-http-bearer)$/.test(p))).toEqual([]);
    const major = name.endsWith('4') ? '4.' : '5.';
    expect(lock.packages['node_modules/@types/express']?.version?.startsWith(major)).toBe(true);
    await compileApp(dir);
    const { stdout } = await run(process.execPath, ['app.js'], { cwd: dir, env, timeout: 60_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '') as AppResult;
    expect(result.valid.status).toBe(200);
    expect(result.device).toMatchObject({ status: 403, body: { action: 'register_device', code: 46217 } });
    expect(result.none).toMatchObject({ status: 401, body: { action: 'login' } });
  }, 300_000);

  it('compiles under legacy settings too (CommonJS, node10 resolution, no esModuleInterop, strict, no skipLibCheck)', async () => {
    const dir = path.join(packed.work, 'express5');
    await writeFile(path.join(dir, 'legacy.ts'), [
      "import { CHANNELS, PlatformClient, requireGameUser, type VerifyMessage } from 'passport-game-platform';",
      'export const names: unknown[] = [CHANNELS.verify, PlatformClient, requireGameUser];',
      'export type Message = VerifyMessage;',
    ].join('\n'));
    const tsc = path.join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--strict', '--module', 'commonjs', '--moduleResolution', 'node10', '--target', 'es2022', '--types', 'node', '--noEmit', 'legacy.ts'];
    await run(process.execPath, [tsc, ...flags], { cwd: dir, env }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc failed under legacy settings:\n${err.stdout ?? String(err)}`);
    });
  }, 60_000);

  it('runs the installed `passport-game-platform` command (from dist/, no tsx)', async () => {
    const dir = path.join(packed.work, 'express5');
    const { stdout } = await run('npx', ['--no-install', 'passport-game-platform', '--help'], { cwd: dir, env });
    expect(stdout).toMatch(/^Usage: passport-game-platform <command>/);
  }, 60_000);
});
