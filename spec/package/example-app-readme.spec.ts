import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PLATFORM_VARIABLES } from '../../lib/config/index.js';

// example-app/README.md lists every environment variable the app reads and every route it serves:
// both lists are checked against the app's sources, so a variable or route added there without a
// row here fails.
const ROOT = path.resolve(import.meta.dirname, '../..');
const APP = path.join(ROOT, 'example-app');
const README = readFileSync(path.join(APP, 'README.md'), 'utf8');

/** The first cells of the README table under the heading `heading`. */
function firstCells(heading: string): string {
  const section = README.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  if (section === undefined) throw new Error(`example-app/README.md: no section ${heading}`);
  return section.split('\n').filter((line) => line.startsWith('| ')).map((line) => line.split(/(?<!\\)\|/)[1]!).join('\n');
}

const sources = (dir: string): string =>
  readdirSync(dir).filter((file) => file.endsWith('.ts')).map((file) => readFileSync(path.join(dir, file), 'utf8')).join('\n');

describe('example-app/README.md', () => {
  it('has a row for every environment variable the app reads', () => {
    const code = sources(APP);
    const read = new Set([
      ...Object.values(PLATFORM_VARIABLES),
      // read(env, 'PORT'), env.ADMIN_MEMBER_NOS, and every quoted name such as 'REDIS_URL' (some are read from a list of names).
      ...[...code.matchAll(/read\(env, '([A-Z][A-Z0-9_]*)'\)|env\.([A-Z][A-Z0-9_]*)|'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)].map((m) => m[1] ?? m[2] ?? m[3]!),
    ]);
    expect(read.size).toBeGreaterThan(20);
    const listed = firstCells('Environment');
    expect([...read].filter((name) => !listed.includes(`\`${name}\``))).toEqual([]);
  });

  it('has a row for every route the app serves, the real-time endpoints included', () => {
    const code = sources(path.join(APP, 'routes'));
    const routes = [...code.matchAll(/router\.(get|post|put|patch|delete)\('([^']+)'/g)]
      .map(([, method, route]) => `${method!.toUpperCase()} ${route!.replace(/:(\w+)/g, (_, name: string) => `<${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}>`)}`);
    expect(routes.length).toBeGreaterThan(8);
    const realtime = readFileSync(path.join(APP, 'realtime.ts'), 'utf8');
    expect(realtime).toContain("path: '/ws'");
    expect(realtime).toContain("startsWith('/socket.io/')");
    const listed = firstCells('Routes');
    expect([...routes, '/ws', '/socket.io/'].filter((route) => !listed.includes(`\`${route}`))).toEqual([]);
  });
});
