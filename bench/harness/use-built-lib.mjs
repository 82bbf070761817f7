// `node --import ./scripts/typescript-sources.mjs --import ./bench/harness/use-built-lib.mjs`
// (or `--import tsx` first, on a Node without type stripping): see built-lib.ts.
import module from 'node:module';
import process from 'node:process';

if (typeof module.registerHooks === 'function' && process.features.typescript) {
  const { resolveToBuilt } = await import('./built-lib-hooks.mjs');
  module.registerHooks({ resolve: (specifier, context, nextResolve) => resolveToBuilt(nextResolve(specifier, context)) });
} else {
  module.register('./built-lib-hooks.mjs', import.meta.url);
}
