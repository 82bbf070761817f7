import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The layers of lib/, read from the import statements themselves. The folder
// graph is computed from every relative import and must hold no cycle, so each
// folder sits above the ones it uses. The adapters stand side by side on the
// kit (lib/adapters/) and the core, never on each other; they take the kit's
// files, which are made for them (a call then names the file that defines it),
// and enter any other folder only through its face (index.ts). The kit is the
// core's edge: it knows no framework, and it names the core's own parts (the
// authentication core) by their files, for the same reason; and
// Express's folder is used by nobody but the public barrel, so a Fastify or
// Nest app never loads Express code.
const LIB = path.resolve(import.meta.dirname, '../../lib');

/** One folder per framework or library an application plugs us into. */
const ADAPTERS = ['middleware', 'strategy', 'nest', 'fastify', 'ws', 'socket-io', 'colyseus'];
const KIT = 'adapters';
/** Tools and optional integrations beside the package: they may build on anything. */
const BESIDE = ['cli', 'emulator', 'testkit', 'opentelemetry', 'prometheus', 'redis'];
/** Files at the top of lib/ that are not in a folder: the public barrel and the shared types. */
const BARREL = 'index.ts';
const SHARED_TYPES = 'types.ts';
/** The runtime check every entry point imports first: a face of its own, with no imports. */
const RUNTIME_CHECK = 'runtime-check.ts';

interface Import {
  file: string;
  specifier: string;
  /** The lib/ file a relative import lands in; undefined for a package. */
  target: string | undefined;
}

/** The folder of a lib/ file, or the file itself for one at the top of lib/. */
function folderOf(relative: string): string {
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0]! : relative;
}

/** The imports of `file`, a path under `root` (lib/ unless told), with their targets relative to it. */
function importsOf(file: string, root = LIB): Import[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.map((specifier) => ({
    file,
    specifier,
    target: specifier.startsWith('.') ? path.relative(root, path.resolve(root, path.dirname(file), specifier)).replace(/\.js$/, '.ts') : undefined,
  }));
}

/** The package a bare specifier names (`@scope/name` or `name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Folder -> the folders its files import (a folder's own files left out). */
function folderGraph(all: Import[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const i of all) {
    const from = folderOf(i.file);
    if (!graph.has(from)) graph.set(from, new Set());
    if (i.target === undefined) continue;
    const to = folderOf(i.target);
    if (to !== from) graph.get(from)!.add(to);
  }
  return graph;
}

/** Every cycle's folders (Tarjan's strongly connected components of more than one folder). */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** True when `target` is a folder's face (`<folder>/index.ts`), the shared types or the runtime check at the top of lib/. */
function isFace(target: string): boolean {
  const parts = target.split(path.sep);
  return (parts.length === 2 && parts[1] === 'index.ts') || target === SHARED_TYPES || target === RUNTIME_CHECK;
}

/** An adapter's import of a file of another folder that is neither the kit's nor a face. */
function isDeepImport(i: Import): boolean {
  const own = folderOf(i.file);
  if (!ADAPTERS.includes(own) || i.target === undefined || isFace(i.target)) return false;
  const to = folderOf(i.target);
  return to !== own && to !== KIT;
}

const files = readdirSync(LIB, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
const imports = files.flatMap((f) => importsOf(f));
const show = (i: Import): string => `${i.file} -> ${i.specifier}`;

describe('the layers of lib/', () => {
  it('reads the imports it checks (the check is not vacuous)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.filter((i) => i.target !== undefined && folderOf(i.target) === KIT).length).toBeGreaterThan(10);
    expect(imports.filter((i) => folderOf(i.file) === 'nest' && i.target === undefined).length).toBeGreaterThan(0);
  });

  it('finds a cycle of folders wherever one is, and a deep import for what it is', () => {
    const sample = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])], ['e', new Set(['f'])], ['f', new Set(['e'])]]);
    expect(cyclesOf(sample)).toEqual(expect.arrayContaining([['a', 'b', 'c'], ['e', 'f']]));
    expect(cyclesOf(sample)).toHaveLength(2);
    expect(cyclesOf(new Map([['a', new Set(['b'])], ['b', new Set()]]))).toEqual([]);
    expect([isFace(path.join('auth', 'index.ts')), isFace(SHARED_TYPES), isFace(path.join('auth', 'authenticate.ts'))]).toEqual([true, true, false]);
  });

  it('holds no cycle of folders: every folder sits above the folders it imports', () => {
    const graph = folderGraph(imports);
    expect(graph.size).toBeGreaterThan(20);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('lets an adapter enter the core only through the kit and the faces (index.ts) of other folders', () => {
    const deep = imports.filter(isDeepImport);
    expect(deep.map(show)).toEqual([]);
    // What the rule refuses, and what it lets through.
    const adapterFile = path.join('ws', 'websocket-auth.ts');
    const probe = (file: string, target: string): boolean => isDeepImport({ file, specifier: target, target });
    expect([
      probe(adapterFile, path.join('auth', 'authentication-core.ts')),
      probe(path.join('middleware', 'require-game-user.ts'), path.join('client', 'platform-client.ts')),
      probe(adapterFile, path.join('adapters', 'http-entry.ts')),
      probe(adapterFile, path.join('auth', 'index.ts')),
      probe(path.join('client', 'platform-client.ts'), path.join('platform-call', 'api-call.ts')),
    ]).toEqual([true, true, false, false, false]);
  });

  it('lets nothing outside middleware/ import middleware/ (Express) but the public barrel', () => {
    const upward = imports.filter((i) => i.target !== undefined && folderOf(i.target) === 'middleware' && folderOf(i.file) !== 'middleware' && i.file !== BARREL);
    expect(upward.map(show)).toEqual([]);
  });

  it('lets no adapter import another adapter: each stands on the kit and the core alone', () => {
    const across = imports.filter((i) => {
      const own = folderOf(i.file);
      const to = i.target === undefined ? undefined : folderOf(i.target);
      return ADAPTERS.includes(own) && to !== undefined && to !== own && ADAPTERS.includes(to);
    });
    expect(across.map(show)).toEqual([]);
  });

  it('keeps the kit free of frameworks and of the adapters above it', () => {
    const kit = imports.filter((i) => folderOf(i.file) === KIT);
    const packages = kit.filter((i) => i.target === undefined && !i.specifier.startsWith('node:'));
    expect(packages.map(show)).toEqual([]);
    const upward = kit.filter((i) => i.target !== undefined && ADAPTERS.includes(folderOf(i.target)));
    expect(upward.map(show)).toEqual([]);
  });

  it('keeps the core (real-time sessions and problem rendering included) below the kit and the adapters', () => {
    const above = new Set([...ADAPTERS, KIT]);
    const beside = new Set([BARREL, ...BESIDE, ...above]);
    const upward = imports.filter((i) => !beside.has(folderOf(i.file)) && i.target !== undefined && above.has(folderOf(i.target)));
    expect(upward.map(show)).toEqual([]);
  });

  it('names every framework package where it belongs', () => {
    const frameworks = new Map<string, string[]>([
      ['express', ['middleware', 'strategy']],
      ['passport-http-bearer', ['strategy']],
      ['@nestjs/common', ['nest']],
      ['@nestjs/core', ['nest']],
      ['fastify', ['fastify']],
      ['fastify-plugin', ['fastify']],
      ['ws', ['ws']],
      ['socket.io', ['socket-io']],
      ['@colyseus/core', ['colyseus']],
    ]);
    const misplaced = imports.filter((i) => {
      if (i.target !== undefined) return false;
      const homes = frameworks.get(packageOf(i.specifier));
      return homes !== undefined && !homes.includes(folderOf(i.file));
    });
    expect(misplaced.map(show)).toEqual([]);
  });
});

describe('the bench', () => {
  // Its stages, servers and harness import one another as lib/'s folders do: downward only
  // (type imports, `import('...')` types included).
  const BENCH = path.resolve(import.meta.dirname, '../../bench');
  const benchFiles = readdirSync(BENCH, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('.') && !f.startsWith('results'));
  const benchImports = benchFiles.flatMap((f) => importsOf(f, BENCH));

  it('holds no cycle of folders either', () => {
    const graph = folderGraph(benchImports);
    expect(graph.has('harness') && graph.has('servers') && graph.get('run.ts')?.has('harness')).toBe(true);
    expect(cyclesOf(graph)).toEqual([]);
  });
});

describe('the examples', () => {
  it('import the package by its name, so their code runs unchanged in an app of its own', () => {
    const root = path.resolve(LIB, '..', 'examples');
    const byPath = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => [...readFileSync(path.join(root, file), 'utf8').matchAll(/from\s+'([^']*\blib\/[^']*)'/g)].map((m) => `examples/${file}: ${m[1]}`));
    expect(byPath).toEqual([]);
  });
});
