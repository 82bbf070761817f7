// Module hooks: a module that resolves to a source file of lib/ is loaded from its compiled copy
// in bench/.built/ instead (registered after tsx's, so this runs first and asks tsx to resolve).
import { URL } from 'node:url';

const LIB = new URL('../../lib/', import.meta.url).href;
const BUILT = new URL('../.built/', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!resolved.url.startsWith(LIB) || !resolved.url.endsWith('.ts')) return resolved;
  return { ...resolved, url: `${BUILT}${resolved.url.slice(LIB.length, -'.ts'.length)}.js`, format: 'module' };
}
