// The bench's servers run the library as an installed package does: compiled by tsc (what `npm
// run build` emits into dist/), on a plain Node. Their own files run on Node's type stripping, as
// `npm start` runs the example app; only imports that land in lib/ are redirected
// (bench/harness/built-lib-hooks.mjs). Not through tsx: its esbuild keepNames wraps every function
// created at run time in a naming call (about 4 us more CPU per verified request), and even on the
// compiled library a server started under tsx read 5 to 10 % fewer requests/s than the same server
// without it, a cost no user pays. tsx stays the fallback on a Node without type stripping.
import { execFileSync } from 'node:child_process';
import module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the compiled library goes: git-ignored, beside the bench. */
export const BUILT_LIB_DIR = fileURLToPath(new URL('../.built/', import.meta.url));
/** The `--import` that redirects lib/ to the compiled copy. */
export const BUILT_LIB_IMPORT = fileURLToPath(new URL('./use-built-lib.mjs', import.meta.url));
/** The `--import` that runs the repository's TypeScript files on Node's type stripping (what `npm start` uses). */
const SOURCES_IMPORT = fileURLToPath(new URL('../../scripts/typescript-sources.mjs', import.meta.url));

/**
 * Node arguments that run a bench server's TypeScript file on the compiled library: Node's own
 * type stripping where this Node has it (22.18 and later), tsx before.
 */
export function builtLibArgs(): string[] {
  const strips = Boolean((process.features as { typescript?: unknown }).typescript) && typeof (module as { registerHooks?: unknown }).registerHooks === 'function';
  return ['--import', strips ? SOURCES_IMPORT : 'tsx', '--import', BUILT_LIB_IMPORT];
}

let built = false;

/** Compiles a library project (default: this tree's `tsconfig.build.json`) into `outDir` as `npm run build` does, JavaScript only. */
export function compileLib(outDir: string, project = 'tsconfig.build.json'): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', project, '--outDir', outDir, '--declaration', 'false', '--declarationMap', 'false', '--incremental', 'false'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

/** Compiles lib/ into {@link BUILT_LIB_DIR}, once per bench process. */
export function ensureBuiltLib(): void {
  if (built) return;
  compileLib(BUILT_LIB_DIR);
  built = true;
}
