// `node --import ./scripts/typescript-sources.mjs example-app/server.ts` (what `npm start` runs):
// the repository's TypeScript sources on Node's own type stripping. The sources import each other
// as `./file.js`, the name the compiled package has; this resolves such a name to the `.ts` file
// beside it when no `.js` file is there. Nothing is transformed: the code that runs is the code
// written, with no helper wrapped around each function (tsx's esbuild keeps function names by
// wrapping every function created at run time in a naming call, which costs a served request
// several microseconds). On a Node without type stripping or synchronous module hooks (before
// 22.18), tsx loads the sources instead.
import module from 'node:module';

const stripsTypes = Boolean(process.features.typescript) && typeof module.registerHooks === 'function';

if (stripsTypes) {
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (err) {
        const local = specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts') === true;
        if (!local || err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
        try {
          return nextResolve(`${specifier.slice(0, -'.js'.length)}.ts`, context);
        } catch {
          throw err; // neither is there: the error names the module as the code wrote it
        }
      }
    },
  });
} else {
  const { register } = await import('tsx/esm/api');
  register();
}
