import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { compileApp, env, expectContract, packPackage, run, type PackedPackage } from './packed-package.js';

// The packed package installed into an Express-only, a Nest-only and a
// Fastify-only app: each installs without the other frameworks (they are
// optional peers), the Nest and Fastify apps compile under strict without
// skipLibCheck, and each answers a valid token, a 46217 and no token over
// real HTTP against the packaged emulator.

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

let packed: PackedPackage;

beforeAll(async () => {
  packed = await packPackage('pgp-frameworks-');
}, 180_000);

afterAll(async () => {
  await packed?.remove();
});

async function start(dir: string, script: string): Promise<AppResult> {
  const { stdout } = await run(process.execPath, [script], { cwd: dir, env, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as AppResult;
}

describe('the packed package in a one-framework app', () => {
  it('installs and runs in an Express-only app, without Nest, Fastify or passport', async () => {
    const dir = await packed.install('express', 'express', { express: '^5.1.0' });
    const result = await start(dir, 'app.mjs');
    expectContract(result);
    expect(result.installed).toEqual({ express: true, passport: false, '@nestjs/core': false, fastify: false });
    // A JavaScript app gets no type packages from us.
    const lock = JSON.parse(await readFile(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((p) => p.includes('node_modules/@types/'))).toEqual([]);
  }, 300_000);

  it('installs, compiles under strict without skipLibCheck and runs in a Nest 11 app (the previous major), without Fastify or passport', async () => {
    const dir = await packed.install('nest', 'nest',
      { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/platform-express': '^11.0.0', 'reflect-metadata': '^0.2.0', rxjs: '^7.8.0' },
      { '@types/node': '^22.0.0', '@types/express': '^5.0.0' },
    );
    await compileApp(dir);
    const result = await start(dir, 'app.js');
    expectContract(result);
    expect(result.installed).toEqual({ express: true, passport: false, '@nestjs/core': true, fastify: false });
    const { stdout } = await run(process.execPath, ['-e', "const n = require('passport-game-platform/nest'); process.stdout.write(typeof n.GamePlatformModule)"], { cwd: dir, env });
    expect(stdout).toBe('function'); // CommonJS apps can require() the subpath too
  }, 300_000);

  it('installs, compiles under strict without skipLibCheck and runs in a Fastify-only app, without Express, Nest or passport', async () => {
    const dir = await packed.install('fastify', 'fastify', { fastify: '^5.0.0' }, { '@types/node': '^22.0.0' });
    await compileApp(dir);
    const result = await start(dir, 'app.js');
    expectContract(result);
    expect(result.installed).toEqual({ express: false, passport: false, '@nestjs/core': false, fastify: true });
    const { stdout } = await run(process.execPath, ['-e', "const f = require('passport-game-platform/fastify'); process.stdout.write(typeof f.fastifyGamePlatform)"], { cwd: dir, env });
    expect(stdout).toBe('function'); // CommonJS apps can require() the subpath too
    const lock = JSON.parse(await readFile(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((p) => /node_modules\/(express|@nestjs\/[^/]+|passport|@types\/express)$/.test(p))).toEqual([]);
  }, 300_000);
});
