// The bench's servers run the library as an installed package does: compiled by tsc (what `npm
// run build` emits into dist/), not through tsx. tsx compiles with esbuild's keepNames, which
// wraps every function created at run time in a naming call: about 4 us more CPU per verified
// request, a cost no user pays. The servers' own files and the example app still run through
// tsx; only imports that land in lib/ are redirected (bench/harness/built-lib-hooks.mjs).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the compiled library goes: git-ignored, beside the bench. */
export const BUILT_LIB_DIR = fileURLToPath(new URL('../.built/', import.meta.url));
/** The `--import` that redirects lib/ to the compiled copy. */
export const BUILT_LIB_IMPORT = fileURLToPath(new URL('./use-built-lib.mjs', import.meta.url));

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
