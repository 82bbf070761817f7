// Module hooks: a module that resolves to a source file of lib/ is loaded from its compiled copy
// in bench/.built/ instead. Registered after the hooks that find the TypeScript sources, so this
// runs first and asks them to resolve.
import { URL } from 'node:url';

const LIB = new URL('../../lib/', import.meta.url).href;
const BUILT = new URL('../.built/', import.meta.url).href;

/** The compiled copy of `resolved` when it is a source file of lib/; else `resolved` itself. */
export function resolveToBuilt(resolved) {
  if (!resolved.url.startsWith(LIB) || !resolved.url.endsWith('.ts')) return resolved;
  return { ...resolved, url: `${BUILT}${resolved.url.slice(LIB.length, -'.ts'.length)}.js`, format: 'module' };
}

/** The same as an asynchronous hook (`module.register`, after tsx's). */
export async function resolve(specifier, context, nextResolve) {
  return resolveToBuilt(await nextResolve(specifier, context));
}
