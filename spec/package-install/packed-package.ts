import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// The packed package installed into small apps from spec/package-install/apps/, as a user gets it.

export const run = promisify(execFile);
const ROOT = process.cwd();
const APPS = path.join(ROOT, 'spec', 'package-install', 'apps');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** No Jest flags in the children. */
export const env = { ...process.env, NODE_OPTIONS: '' };
const BUFFER = 64 * 1024 * 1024;

/** A temporary folder holding the package's tarball and the apps installed from it. */
export interface PackedPackage {
  readonly work: string;
  readonly tarball: string;
  /** Copies `apps/<source>` (and the shared check files) to `<work>/<name>` and installs it with the tarball. */
  install(name: string, source: string, dependencies: Record<string, string>, devDependencies?: Record<string, string>): Promise<string>;
  remove(): Promise<void>;
}

export async function packPackage(prefix: string): Promise<PackedPackage> {
  const work = await mkdtemp(path.join(tmpdir(), prefix));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, env, maxBuffer: BUFFER });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
  const tarball = path.join(work, packed!.filename);
  return {
    work,
    tarball,
    async install(name, source, dependencies, devDependencies = {}) {
      const dir = path.join(work, name);
      await cp(path.join(APPS, source), dir, { recursive: true });
      for (const file of ['check.mjs', 'check.d.mts', 'tsconfig.json']) await cp(path.join(APPS, file), path.join(dir, file));
      const manifest = { name: `${name}-app`, private: true, type: 'module', dependencies: { 'passport-game-platform': `file:${tarball}`, ...dependencies }, devDependencies };
      await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: dir, env, maxBuffer: BUFFER });
      return dir;
    },
    remove: () => rm(work, { recursive: true, force: true }),
  };
}

/** `tsc -p tsconfig.json` in an installed app (strict, no skipLibCheck); throws with tsc's output. */
export async function compileApp(dir: string): Promise<void> {
  await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, env }).catch((err: { stdout?: string }) => {
    throw new Error(`tsc failed in ${path.basename(dir)}:\n${err.stdout ?? String(err)}`);
  });
}

/** The answers of an installed app to a valid token, a 46217 and no token, as the error contract says. */
export function expectContract(result: { valid: { status: number }; device: unknown; none: unknown }): void {
  expect(result.valid.status).toBe(200);
  expect(result.device).toMatchObject({ status: 403, type: 'application/problem+json; charset=utf-8', body: { action: 'register_device', code: 46217 } });
  expect(result.none).toMatchObject({ status: 401, type: 'application/problem+json; charset=utf-8', body: { action: 'login' } });
}
