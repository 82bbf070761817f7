import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// The packed package installed into an Express-only, a Nest-only and a
// Fastify-only app: each installs without the other frameworks (they are
// optional peers), the Nest and Fastify apps compile under strict without
// skipLibCheck, and each answers a valid token, a 46217 and no token over
// real HTTP against the packaged emulator.

const run = promisify(execFile);
const ROOT = process.cwd();
const APPS = path.join(ROOT, 'spec', 'package-install', 'apps');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
// No Jest flags in the children.
const env = { ...process.env, NODE_OPTIONS: '' };

interface Answer {
  status: number;
  type: string | null;
  body: Record<string, unknown>;
}
interface AppResult {
  valid: Answer;
  device: Answer;
  none: Answer;
  installed: Record<'express' | 'passport' | '@nestjs/core' | 'fastify', boolean>;
}

let work: string;
let tarball: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'pgp-frameworks-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
  tarball = path.join(work, packed!.filename);
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function installApp(name: string, dependencies: Record<string, string>, devDependencies: Record<string, string> = {}): Promise<string> {
  const dir = path.join(work, name);
  await cp(path.join(APPS, name), dir, { recursive: true });
  for (const file of ['check.mjs', 'check.d.mts', 'tsconfig.json']) await cp(path.join(APPS, file), path.join(dir, file));
  const manifest = { name: `${name}-app`, private: true, type: 'module', dependencies: { 'passport-game-platform': `file:${tarball}`, ...dependencies }, devDependencies };
  await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
  return dir;
}

async function compile(dir: string): Promise<void> {
  await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, env }).catch((err: { stdout?: string }) => {
    throw new Error(`tsc failed in ${path.basename(dir)}:\n${err.stdout ?? String(err)}`);
  });
}

async function start(dir: string, script: string): Promise<AppResult> {
  const { stdout } = await run(process.execPath, [script], { cwd: dir, env, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as AppResult;
}

function expectContract(result: AppResult): void {
  expect(result.valid.status).toBe(200);
  expect(result.device).toMatchObject({ status: 403, type: 'application/problem+json; charset=utf-8', body: { action: 'register_device', code: 46217 } });
  expect(result.none).toMatchObject({ status: 401, type: 'application/problem+json; charset=utf-8', body: { action: 'login' } });
}

describe('the packed package in a one-framework app', () => {
  it('installs and runs in an Express-only app, without Nest, Fastify or passport', async () => {
    const dir = await installApp('express', { express: '^5.1.0' });
    const result = await start(dir, 'app.mjs');
    expectContract(result);
    expect(result.installed).toEqual({ express: true, passport: false, '@nestjs/core': false, fastify: false });
  }, 300_000);

  it('installs, compiles under strict without skipLibCheck and runs in a Nest-only app, without Fastify or passport', async () => {
    const dir = await installApp(
      'nest',
      { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/platform-express': '^11.0.0', 'reflect-metadata': '^0.2.0', rxjs: '^7.8.0' },
      { '@types/node': '^20.19.0', '@types/express': '^5.0.0' },
    );
    await compile(dir);
    const result = await start(dir, 'app.js');
    expectContract(result);
    expect(result.installed).toEqual({ express: true, passport: false, '@nestjs/core': true, fastify: false });
    const { stdout } = await run(process.execPath, ['-e', "const n = require('passport-game-platform/nest'); process.stdout.write(typeof n.GamePlatformModule)"], { cwd: dir, env });
    expect(stdout).toBe('function'); // CommonJS apps can require() the subpath too
  }, 300_000);

  it('installs, compiles under strict without skipLibCheck and runs in a Fastify-only app, without Express, Nest or passport', async () => {
    const dir = await installApp('fastify', { fastify: '^5.0.0' }, { '@types/node': '^20.19.0' });
    await compile(dir);
    const result = await start(dir, 'app.js');
    expectContract(result);
    expect(result.installed).toEqual({ express: false, passport: false, '@nestjs/core': false, fastify: true });
    const { stdout } = await run(process.execPath, ['-e', "const f = require('passport-game-platform/fastify'); process.stdout.write(typeof f.fastifyGamePlatform)"], { cwd: dir, env });
    expect(stdout).toBe('function'); // CommonJS apps can require() the subpath too
    const lock = JSON.parse(await readFile(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((p) => /node_modules\/(express|@nestjs\/[^/]+|passport)$/.test(p))).toEqual([]);
  }, 300_000);
});
