// What a long-lived collection written and emptied on every request costs the garbage collector.
// Each case runs in a process of its own for 4 s: 50 requests in flight, each a small graph of
// objects kept for two turns of the event loop and listed, while it lives, in one long-lived
// collection (none, an array whose last entry takes a leaving entry's slot, a Set, a Map keyed by
// string). With `seeded`, two full collections run first while the collection holds entries, as
// when a server idles between bursts. V8's `--trace-gc-nvp` gives the bytes promoted by young
// collections and the count of major ones.
//
// Usage: npx tsx bench/collection-churn.ts
import { spawnSync } from 'node:child_process';

const CHILD = `
const [kind, seeded] = process.argv.slice(1);
const list = kind === 'map' ? new Map() : kind === 'set' ? new Set() : [];
let next = 0;
const graph = () => {
  const g = { id: next++, slot: -1, parts: [] };
  for (let i = 0; i < 40; i += 1) g.parts.push({ i, s: 'x' + i, a: [i, i + 1, i + 2] });
  return g;
};
const add = (g) => {
  if (kind === 'set') list.add(g);
  else if (kind === 'map') list.set('k' + g.id, g);
  else if (kind === 'array') { g.slot = list.length; list.push(g); }
};
const remove = (g) => {
  if (kind === 'set') list.delete(g);
  else if (kind === 'map') list.delete('k' + g.id);
  else if (kind === 'array') { const last = list.pop(); if (last !== g) { list[g.slot] = last; last.slot = g.slot; } }
};
const held = Array.from({ length: 50 }, graph);
held.forEach(add);
if (seeded === 'seeded') { globalThis.gc(); globalThis.gc(); }
held.forEach(remove);
let served = 0;
const end = performance.now() + 4000;
const request = () => {
  const g = graph();
  add(g);
  setImmediate(() => setImmediate(() => {
    remove(g);
    served += 1;
    if (performance.now() < end) request();
  }));
};
for (let i = 0; i < 50; i += 1) request();
process.on('exit', () => process.stderr.write('served=' + served + '\\n'));
`;

const cases: Array<[string, string]> = [
  ['none', 'seeded'], ['array', 'seeded'], ['set', 'seeded'], ['set', 'unseeded'], ['map', 'seeded'], ['map', 'unseeded'],
];
console.log('listed in            promoted MB  major GCs  requests served');
for (const [kind, seeded] of cases) {
  const run = spawnSync(process.execPath, ['--expose-gc', '--trace-gc-nvp', '-e', CHILD, kind, seeded], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  let promoted = 0;
  let majors = 0;
  for (const line of run.stdout.split('\n')) {
    if (/\bgc=s\b/.test(line)) promoted += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
    else if (/\bgc=(mc|mmc)\b/.test(line)) majors += 1;
  }
  const served = /served=(\d+)/.exec(run.stderr)?.[1] ?? '?';
  console.log(`${`${kind}, ${seeded}`.padEnd(20)} ${(promoted / 1e6).toFixed(1).padStart(11)} ${String(majors).padStart(10)} ${served.padStart(16)}`);
}
