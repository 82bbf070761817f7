import { cp, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { compileApp, env, expectContract, packPackage, run, type PackedPackage } from './packed-package.js';

// Today's stack: the packed package installed (no --force, no
// --legacy-peer-deps) into one app with the newest release of every framework
// and peer it supports, and into an app with the previous Colyseus major; the
// types that travel (two installed copies, declaration maps with their
// sources, @fastify/jwt beside our Fastify plugin under strict without
// skipLibCheck).

type Answer = { status: number; type: string | null; body: Record<string, unknown> };
type Answers = { valid: Answer; device: Answer; none: Answer };

let packed: PackedPackage;
let newest: string | undefined;

beforeAll(async () => {
  packed = await packPackage('pgp-current-stack-');
}, 180_000);

afterAll(async () => {
  await packed?.remove();
});

const NEWEST = {
  express: 'latest', passport: 'latest',
  '@nestjs/common': 'latest', '@nestjs/core': 'latest', '@nestjs/platform-express': 'latest', 'reflect-metadata': 'latest', rxjs: 'latest',
  fastify: 'latest', '@fastify/jwt': 'latest',
  'socket.io': 'latest', 'socket.io-client': 'latest', ws: 'latest',
  '@colyseus/core': 'latest', '@colyseus/ws-transport': 'latest', '@colyseus/sdk': 'latest',
  redis: 'latest', 'prom-client': 'latest', '@opentelemetry/api': 'latest',
};

describe('the packed package with today\'s stack', () => {
  it('installs beside the newest release of every framework and peer, compiles strict (with @fastify/jwt) and serves Express, Nest, Fastify, Socket.IO, ws and Colyseus', async () => {
    const dir = await packed.install('newest', 'newest', NEWEST, { '@types/express': 'latest', '@types/ws': 'latest', '@types/debug': 'latest', '@types/node': '^22.0.0' });
    newest = dir;
    const lock = JSON.parse(await readFile(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    const major = (name: string): string | undefined => lock.packages[`node_modules/${name}`]?.version?.split('.')[0];
    expect(major('@nestjs/core')).toBe('12');
    expect(lock.packages['node_modules/@colyseus/core']?.version).toMatch(/^0\.18\./);
    await compileApp(dir);
    const { stdout } = await run(process.execPath, ['app.js'], { cwd: dir, env, timeout: 90_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '') as Record<string, unknown> & { express: Answers; nest: Answers; fastify: Answers };
    expectContract(result.express);
    expectContract(result.nest);
    expectContract(result.fastify);
    expect(result.adminStatus).toBe(200);
    const session = { member_no: '20005061987', guid: '200000000401' };
    expect(result.socketIo).toEqual(session);
    expect(result.ws).toEqual({ type: 'session', ...session });
    expect(result.colyseus).toEqual(session);
    expect(result.urlToken).toEqual({ code: 4401, message: 'login' });
    expect(result.isPlatformError).toBe(true);
  }, 600_000);

  it('isPlatformError recognises an error made by another installed copy of the package', async () => {
    expect(newest).toBeDefined();
    const plugin = path.join(newest!, 'plugin', 'node_modules', 'passport-game-platform');
    await mkdir(path.dirname(plugin), { recursive: true });
    await cp(path.join(newest!, 'node_modules', 'passport-game-platform'), plugin, { recursive: true });
    const script = `
      const app = await import('passport-game-platform');
      const other = await import(${JSON.stringify(path.join(plugin, 'dist', 'index.js'))});
      const err = new other.PlatformError({ kind: 'invalid_token', message: 'from the plugin' });
      process.stdout.write(JSON.stringify({ sameClass: app.PlatformError === other.PlatformError, instanceOf: err instanceof app.PlatformError, guard: app.isPlatformError(err), plain: app.isPlatformError(new Error('x')) }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: newest!, env });
    expect(JSON.parse(stdout)).toEqual({ sameClass: false, instanceOf: false, guard: true, plain: false });
  }, 60_000);

  it('ships declaration maps whose sources are in the package', async () => {
    expect(newest).toBeDefined();
    const installed = path.join(newest!, 'node_modules', 'passport-game-platform');
    for (const entry of ['index', 'fastify/index', 'colyseus/room-auth']) {
      const mapFile = path.join(installed, 'dist', `${entry}.d.ts.map`);
      const map = JSON.parse(await readFile(mapFile, 'utf8')) as { sources: string[] };
      for (const source of map.sources) expect((await stat(path.resolve(path.dirname(mapFile), source))).isFile()).toBe(true);
    }
  }, 60_000);

  it('installs and runs with the previous Colyseus major (0.16): session after join, URL token refused with 4401 login', async () => {
    const dir = await packed.install('colyseus16', 'colyseus16', { '@colyseus/core': '^0.16.0', '@colyseus/ws-transport': '^0.16.0', 'colyseus.js': '^0.16.0' });
    const { stdout } = await run(process.execPath, ['app.mjs'], { cwd: dir, env, timeout: 60_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '') as Record<string, unknown>;
    expect(result.session).toEqual({ member_no: '20005061987', guid: '200000000401' });
    expect(result.urlToken).toEqual({ code: 4401, message: 'login' });
    expect(result.urlAndHeader).toEqual({ code: 4401, message: 'login' });
  }, 300_000);
});
