import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The layers of lib/, read from the import statements themselves: the adapters
// stand side by side on the kit (lib/adapters/) and the core, never on each
// other; the kit knows no framework; and Express's folder is used by nobody but
// the public barrel, so a Fastify or Nest app never loads Express code.
const LIB = path.resolve(import.meta.dirname, '../../lib');

/** One folder per framework or library an application plugs us into. */
const ADAPTERS = ['middleware', 'strategy', 'nest', 'fastify', 'ws', 'socket-io', 'colyseus'];
const KIT = 'adapters';
/** Entry points that gather the public surface and may reach every folder. */
const BARRELS = new Set(['index.ts']);

interface Import {
  file: string;
  specifier: string;
  /** The lib/ folder a relative import lands in ('' for lib/ itself); undefined for a package. */
  folder: string | undefined;
}

function folderOf(relative: string): string {
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0]! : '';
}

function importsOf(file: string): Import[] {
  const text = readFileSync(path.join(LIB, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.map((specifier) => ({
    file,
    specifier,
    folder: specifier.startsWith('.') ? folderOf(path.relative(LIB, path.resolve(LIB, path.dirname(file), specifier))) : undefined,
  }));
}

/** The package a bare specifier names (`@scope/name` or `name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const files = readdirSync(LIB, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
const imports = files.flatMap(importsOf);
const show = (i: Import): string => `${i.file} -> ${i.specifier}`;

describe('the layers of lib/', () => {
  it('reads the imports it checks (the check is not vacuous)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.filter((i) => i.folder === KIT).length).toBeGreaterThan(10);
    expect(imports.filter((i) => folderOf(i.file) === 'nest' && i.folder === undefined).length).toBeGreaterThan(0);
  });

  it('lets nothing outside middleware/ import middleware/ (Express) but the public barrel', () => {
    const upward = imports.filter((i) => i.folder === 'middleware' && folderOf(i.file) !== 'middleware' && !BARRELS.has(i.file));
    expect(upward.map(show)).toEqual([]);
  });

  it('lets no adapter import another adapter: each stands on the kit and the core alone', () => {
    const across = imports.filter((i) => {
      const own = folderOf(i.file);
      return ADAPTERS.includes(own) && i.folder !== undefined && i.folder !== own && ADAPTERS.includes(i.folder);
    });
    expect(across.map(show)).toEqual([]);
  });

  it('keeps the kit free of frameworks and of the adapters above it', () => {
    const kit = imports.filter((i) => folderOf(i.file) === KIT);
    const packages = kit.filter((i) => i.folder === undefined && !i.specifier.startsWith('node:'));
    expect(packages.map(show)).toEqual([]);
    const upward = kit.filter((i) => i.folder !== undefined && ADAPTERS.includes(i.folder));
    expect(upward.map(show)).toEqual([]);
  });

  it('keeps the core below the kit and the adapters', () => {
    const above = new Set([...ADAPTERS, KIT, 'realtime']);
    // The folders that build on the adapters: the public barrels, and tools beside the package.
    const beside = new Set(['', 'cli', 'emulator', 'testkit', 'opentelemetry', 'prometheus', 'redis', ...above]);
    const upward = imports.filter((i) => !beside.has(folderOf(i.file)) && i.folder !== undefined && above.has(i.folder));
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
      if (i.folder !== undefined) return false;
      const homes = frameworks.get(packageOf(i.specifier));
      return homes !== undefined && !homes.includes(folderOf(i.file));
    });
    expect(misplaced.map(show)).toEqual([]);
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
