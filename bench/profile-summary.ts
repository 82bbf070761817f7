// Summarizes a V8 .cpuprofile (from BENCH_CPU_PROF=...): self time by function and by module.
// Usage: npx tsx bench/profile-summary.ts bench/results/ours-....cpuprofile [top=25]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A readable module name: the npm package, the repository file, or the node built-in. */
export function moduleOf(url: string): string {
  if (url === '') return '(native/vm)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : rest[0] ?? url;
  }
  if (url.startsWith('node:')) return url;
  const repo = url.indexOf('/work/main/');
  return repo >= 0 ? url.slice(repo + '/work/main/'.length) : url;
}

/** The file: relative to node_modules or to the repository. */
export function fileOf(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  return moduleOf(url);
}

/** Self time (ms) per key, largest first. */
export function selfTimes(profile: CpuProfile, keyOf: (n: ProfileNode) => string): Array<[string, number]> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const key = keyOf(node);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals.entries()].sort((a, b) => b[1] - a[1]);
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  const top = Number(topArg ?? '25');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const all = selfTimes(profile, () => 'all')[0]?.[1] ?? 0;
  const idle = selfTimes(profile, (n) => n.callFrame.functionName)
    .filter(([k]) => k === '(idle)' || k === '(program)' || k === '(garbage collector)');
  const print = (title: string, rows: Array<[string, number]>): void => {
    process.stdout.write(`\n${title}\n`);
    for (const [k, ms] of rows.slice(0, top)) process.stdout.write(`${ms.toFixed(0).padStart(8)} ms ${(100 * ms / all).toFixed(1).padStart(5)} %  ${k}\n`);
  };
  process.stdout.write(`total ${all.toFixed(0)} ms; ${idle.map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`).join(', ')}\n`);
  print('self time by module', selfTimes(profile, (n) => moduleOf(n.callFrame.url)));
  print('self time by function', selfTimes(profile, (n) => `${n.callFrame.functionName || '(anonymous)'}  ${fileOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`));
}

if (process.argv[1]?.endsWith('profile-summary.ts')) main();
