// Imported first by every entry point, so an unsupported runtime fails at import with a sentence
// that names the requirement, before any other module of the package runs (on an older Node the
// first symptom would otherwise be a misleading 503 or 500 at the first request). Bun and Deno
// report the Node version they emulate, not their own, and are not refused here.

/** The oldest Node.js major the package runs on (package.json `engines` says the same; a test checks). */
export const MINIMUM_NODE_MAJOR = 22;

/** What the check reads of the running process. */
export interface RuntimeFacts {
  readonly node: string | undefined;
  readonly bun: string | undefined;
  readonly deno: boolean;
}

/** The sentence an unsupported runtime is refused with, or `undefined` when it is supported. */
export function unsupportedRuntime(facts: RuntimeFacts): string | undefined {
  if (facts.bun !== undefined || facts.deno || facts.node === undefined) return undefined;
  const major = Number(facts.node.split('.')[0]);
  if (!Number.isInteger(major) || major >= MINIMUM_NODE_MAJOR) return undefined;
  return `passport-game-platform needs Node.js ${MINIMUM_NODE_MAJOR} or later (this is ${facts.node})`;
}

const versions = typeof process === 'object' && process !== null ? (process.versions as Record<string, string | undefined>) : {};
const refusal = unsupportedRuntime({ node: versions.node, bun: versions.bun, deno: 'Deno' in globalThis });
if (refusal !== undefined) throw new Error(refusal);
