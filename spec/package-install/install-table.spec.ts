import { readFileSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { env, packPackage, run, type PackedPackage } from './packed-package.js';

// Every row of the README's install table, run exactly as written in an empty directory (the
// package's own name stands for its packed tarball; everything else is the newest release from the
// registry): the install line, then the TypeScript extras. An app for the row
// (apps/install-table/<row>.ts) then compiles with the app's own TypeScript under the row's
// settings (strict, no skipLibCheck) and runs. A row the table gains without an app fails here.
const ROOT = process.cwd();
const APPS = path.join(ROOT, 'spec', 'package-install', 'apps', 'install-table');

interface Row {
  integration: string;
  slug: string;
  install: string;
  extras: string[];
  decorators: boolean;
}

/** The install table's rows, read from README.md. */
function installRows(readme: string): Row[] {
  const all = readme.split('\n');
  const header = all.findIndex((line) => line.startsWith('| integration | install |'));
  const end = all.findIndex((line, i) => i > header && !line.startsWith('|'));
  const lines = all.slice(header + 2, end);
  return lines.map((line) => {
    // A cell's escaped pipe, a backslash before it, is text, not a column border.
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim().replace(/\\\|/g, '|'));
    const integration = cells[0]!.replace(/`/g, '');
    const codes = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const install = codes(cells[1]!).find((code) => code.startsWith('npm i '));
    if (install === undefined) throw new Error(`README install table: the ${integration} row has no npm i line`);
    return {
      integration,
      slug: integration.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
      install,
      extras: codes(cells[2]!).filter((code) => code.startsWith('npm i ')),
      decorators: cells[2]!.includes('experimentalDecorators'),
    };
  });
}

const rows = installRows(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

let packed: PackedPackage;
let redis: TestRedis | undefined;

beforeAll(async () => {
  packed = await packPackage('pgp-install-table-');
}, 180_000);

afterAll(async () => {
  await packed?.remove();
  await redis?.stop();
});

describe('the README install table', () => {
  it('has a row for every integration, each installing the package', () => {
    expect(rows.map((row) => row.slug)).toEqual(expect.arrayContaining(['express', 'express-passport', 'nestjs', 'fastify', 'ws', 'socket-io', 'colyseus']));
    for (const row of rows) expect(row.install).toMatch(/^npm i passport-game-platform /);
  });

  it.each(rows.map((row) => [row.integration, row] as const))('%s: the row alone installs, compiles strict without skipLibCheck and runs', async (_name, row) => {
    const dir = path.join(packed.work, row.slug);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: `${row.slug}-app`, private: true, type: 'module' }, null, 2));
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'nodenext', strict: true, ...(row.decorators ? { experimentalDecorators: true, emitDecoratorMetadata: true } : {}) },
      files: ['app.ts'],
    }, null, 2));
    await copyFile(path.join(APPS, `${row.slug}.ts`), path.join(dir, 'app.ts')).catch(() => {
      throw new Error(`the README's ${row.integration} row has no app: add spec/package-install/apps/install-table/${row.slug}.ts`);
    });
    const npmEnv = { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true', npm_config_loglevel: 'error' };
    for (const command of [row.install, ...row.extras]) {
      const args = command.split(/\s+/).slice(1).map((arg) => (arg === 'passport-game-platform' ? packed.tarball : arg));
      await run('npm', args, { cwd: dir, env: npmEnv, maxBuffer: 64 * 1024 * 1024 }).catch((err: { stderr?: string }) => {
        throw new Error(`${command} failed:\n${err.stderr ?? String(err)}`);
      });
    }
    await run(process.execPath, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir, env }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc failed for the ${row.integration} row:\n${err.stdout ?? String(err)}`);
    });
    if (row.slug === 'several-instances') redis ??= await startTestRedis();
    const { stdout } = await run(process.execPath, ['app.js'], { cwd: dir, env: { ...env, ...(redis === undefined ? {} : { REDIS_URL: redis.url }) }, timeout: 60_000 });
    const checks = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, boolean>;
    expect(Object.keys(checks).length).toBeGreaterThan(0);
    expect(Object.entries(checks).filter(([, ok]) => !ok)).toEqual([]);
  }, 300_000);
});
