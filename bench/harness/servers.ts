import type { SpawnOptions } from './children.js';
import type { BenchOptions } from './options.js';

/**
 * The steady-state cases: the unprotected route (ceiling), the floor (the job done by hand on
 * undici, nothing else), the package alone on Express, the passport + axios baseline, the example
 * app, and the example app with the result cache on.
 */
export const STEADY_CASES = ['unprotected', 'floor', 'library', 'baseline', 'ours', 'ours-cached'] as const;
export type SteadyCase = (typeof STEADY_CASES)[number];

/** Every server the bench starts. */
export type ServerKind = SteadyCase | 'baseline-no-single-flight' | 'ours-memory';

export interface ServerSpec {
  script: string;
  env: Record<string, string>;
  nodeArgs: string[];
  /** The name used by BENCH_CPU_PROF. */
  profileName: string;
}

function cacheEnv(options: BenchOptions): Record<string, string> {
  return { BENCH_CACHE_TTL_MS: String(options.cacheTtlMs), BENCH_CACHE_MAX_ENTRIES: String(options.cacheMaxEntries) };
}

function base(kind: ServerKind, options: BenchOptions): Omit<ServerSpec, 'nodeArgs'> {
  switch (kind) {
    case 'unprotected': return { script: 'unprotected-server.ts', env: {}, profileName: kind };
    case 'floor': return { script: 'floor-server.ts', env: {}, profileName: kind };
    case 'library': return { script: 'library-server.ts', env: {}, profileName: kind };
    case 'baseline': return { script: 'baseline-server.ts', env: { BASELINE_TOKEN: 'startup' }, profileName: kind };
    case 'baseline-no-single-flight': return { script: 'baseline-server.ts', env: { BASELINE_TOKEN: 'lazy' }, profileName: 'baseline' };
    case 'ours': return { script: 'ours-server.ts', env: {}, profileName: kind };
    case 'ours-cached': return { script: 'ours-server.ts', env: cacheEnv(options), profileName: kind };
    case 'ours-memory': return { script: 'ours-server.ts', env: cacheEnv(options), profileName: 'ours-cached' };
  }
}

/** How to start a server of `kind` (with `--cpu-prof` when asked for). */
export function serverSpec(kind: ServerKind, options: BenchOptions, platformEnv: Readonly<Record<string, string>>, profileDir: string): ServerSpec & SpawnOptions {
  const b = base(kind, options);
  const nodeArgs = kind === 'ours-memory' ? ['--expose-gc'] : [];
  // One profile per steady-state server; cold-burst and memory servers are not profiled.
  if (options.cpuProfile.includes(b.profileName) && kind === b.profileName) {
    // Default names (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile): tsx's loader thread writes
    // its own profile, so a fixed name would be overwritten. Thread 0 is the main thread.
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', profileDir);
  }
  return { ...b, env: { ...platformEnv, ...b.env }, nodeArgs };
}
