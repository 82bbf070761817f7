import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { MINIMUM_NODE_MAJOR } from '../../lib/runtime-check.js';

// Facts the README states about the package, checked against where they are true (package.json,
// CI, the sources), and kept out of the other documents, which point to the README instead.
const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const README = read('README.md');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** The rows of the README table whose header starts with `header`, as trimmed cells. */
function table(header: string): string[][] {
  const lines = README.split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  if (start < 0) throw new Error(`README.md: no table headed ${header}`);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start + 2, end).map((line) => line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim().replace(/\\\|/g, '|')));
}

describe('the README\'s facts', () => {
  it('Node.js: the versions it names are engines\' minimum, the runtime check\'s and the lines CI tests', () => {
    const stated = /Supported Node\.js: \*\*(\d+) and (\d+)\*\* \(`engines` `([^`]+)`/.exec(README);
    expect(stated).not.toBeNull();
    const [, low, high, engines] = stated!;
    expect(engines).toBe(pkg.engines.node);
    expect(`>=${low}`).toBe(pkg.engines.node);
    expect(Number(low)).toBe(MINIMUM_NODE_MAJOR);
    expect(/^NODE_LINES=\(([\d ]+)\)$/m.exec(read('.ci/run'))?.[1]).toBe(`${low} ${high}`);
    expect(/const SUPPORTED_MAJOR = (\d+);/.exec(read('scripts/supported-node-bin.mjs'))?.[1]).toBe(low);
    expect(read('CONTRIBUTING.md')).toContain(`Node.js ${low} or later`);
  });

  it('dependencies: the count and the table are package.json\'s dependencies', () => {
    const count = /Runtime dependencies, (\w+),/.exec(README)?.[1];
    expect(count).toBe(NUMBERS[Object.keys(pkg.dependencies).length]);
    expect(table('| dependency |').map((row) => row[0]!.replace(/`/g, '')).sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it('the platform\'s HTTP client is the dependency the transport imports, and no document names another', () => {
    expect(read('lib/platform-call/transport.ts')).toMatch(/^import \{ Client \} from 'undici\/index\.js';$/m);
    expect(pkg.dependencies.undici).toBeDefined();
    const documents = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const other = documents.filter((file) => /(platform calls|calls to the platform)( now)? go(es)? through `?(node:http|axios|fetch)/i.test(read(file)));
    expect(other).toEqual([]);
  });

  it('peer ranges in the install table are package.json\'s peerDependencies', () => {
    const peerOf: Record<string, string> = {
      Express: 'express', 'Express + Passport': 'passport', NestJS: '@nestjs/common', Fastify: 'fastify', '`ws`': 'ws', 'Socket.IO': 'socket.io',
      Colyseus: '@colyseus/core', 'several instances': 'redis', Prometheus: 'prom-client', OpenTelemetry: '@opentelemetry/api',
    };
    const rows = table('| integration | install |');
    expect(rows.map((row) => row[0])).toEqual(Object.keys(peerOf));
    for (const row of rows) {
      const range = row[3]!.replace(/^passport /, '').replace(/`/g, '');
      expect({ integration: row[0], range }).toEqual({ integration: row[0], range: pkg.peerDependencies[peerOf[row[0]!]!] });
    }
  });

  it('the majors a guide names for its framework are the peer range\'s', () => {
    // A 0.x range names its minors (0.16 and 0.18), any other its majors (11 and 12).
    const named = (range: string): string => [...range.matchAll(/\^(\d+)\.(\d+)/g)].map((m) => (m[1] === '0' ? `0.${m[2]}` : m[1]!)).join(' and ');
    expect(read('docs/nest.md')).toContain(`(Nest ${named(pkg.peerDependencies['@nestjs/common']!)},`);
    expect(read('docs/fastify.md')).toContain(`(Fastify ${named(pkg.peerDependencies.fastify!)})`);
    expect(read('docs/realtime.md')).toContain(`works with Colyseus ${named(pkg.peerDependencies['@colyseus/core']!)} (peer range`);
  });

  it('install lines for the optional integrations live in the README\'s table only', () => {
    const repeated: string[] = [];
    for (const file of readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      for (const [line] of read(`docs/${file}`).matchAll(/`npm i [^`]*`/g)) {
        if (/@opentelemetry\/|@colyseus\/|\bredis\b|prom-client|@types\/node/.test(line)) repeated.push(`docs/${file}: ${line}`);
      }
    }
    expect(repeated).toEqual([]);
  });
});
