import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY_DIRS: Record<string, string> = {
  'passport-game-platform': 'lib',
  'passport-game-platform/emulator': 'lib/emulator',
  'passport-game-platform/nest': 'lib/nest',
  'passport-game-platform/fastify': 'lib/fastify',
  'passport-game-platform/testkit': 'lib/testkit',
  'passport-game-platform/ws': 'lib/ws',
  'passport-game-platform/socket.io': 'lib/socket-io',
  'passport-game-platform/opentelemetry': 'lib/opentelemetry',
  'passport-game-platform/prometheus': 'lib/prometheus',
  'passport-game-platform/redis': 'lib/redis',
  'passport-game-platform/colyseus': 'lib/colyseus',
  'passport-game-platform/realtime': 'lib/realtime',
};
const PACKAGE_IMPORT = /(from |require\()'(passport-game-platform(?:\/emulator|\/nest|\/fastify|\/testkit|\/ws|\/socket\.io|\/opentelemetry|\/prometheus|\/redis|\/colyseus|\/realtime)?)'/g;

/** A piece of code a user would write, importing the package by name. */
export interface Snippet {
  name: string;
  code: string;
  /** `'cjs'`: a CommonJS JavaScript program, run as written (not type-checked). Default `'ts'`. */
  language?: 'ts' | 'cjs';
}

/** What {@link buildSnippets} produced. */
export interface BuiltSnippets {
  /** The runnable file of each snippet, in order (`.mjs` or `.cjs`). */
  programs: string[];
  /** Removes every file written. */
  cleanup(): void;
}

// The package's names point to its sources, by a path relative to the snippet
// that holds both before (lib/*.ts) and after emit (out/lib/*.js), since the
// emitted tree keeps the repository's layout.
function withPackagePaths(code: string, fromDir: string, libRoot = ROOT): string {
  return code.replace(PACKAGE_IMPORT, (_, lead: string, name: string) => {
    const target = path.relative(fromDir, path.join(libRoot, ENTRY_DIRS[name]!, 'index.js'));
    return `${lead}'${target.startsWith('.') ? target : `./${target}`}'`;
  });
}

function snippetDir(): string {
  // Inside the repository, so bare imports (express, passport) resolve from node_modules.
  const dir = path.join(ROOT, 'spec', 'output', `snippets-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

// The options a user's strict project would compile with: a Node server's, so no DOM library
// (a snippet that needs a browser global fails here, as it would at run time; and parsing the
// DOM's declarations cost each program about 0.6 s of CPU).
const STRICT: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true, skipLibCheck: true, types: ['node'], lib: ['lib.es2023.d.ts', 'lib.es2024.promise.d.ts'], typeRoots: [path.join(ROOT, 'node_modules', '@types')],
  verbatimModuleSyntax: true, resolveJsonModule: true,
  // Nest apps are written with TypeScript's decorators.
  experimentalDecorators: true, emitDecoratorMetadata: true,
};

// ES modules, as NodeNext writes them under this package's "type": "module" (transpileModule cannot read package.json).
function transpile(code: string, fileName: string): string {
  return ts.transpileModule(code, {
    fileName,
    compilerOptions: { ...STRICT, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, isolatedModules: true, sourceMap: false, declaration: false },
  }).outputText;
}

/**
 * Writes every source of lib/ as the JavaScript the build emits, into `outDir`
 * (same layout, `.js`). Each file is transpiled on its own: the sources compile
 * under isolatedModules, so that is what a full emit writes, and the typecheck
 * script checks them. The output is kept in node_modules/.cache under a digest of
 * the sources, the compiler's version and the transpile step with its options, so
 * the suites that need it transpile lib/ once between them.
 */
export function transpileLib(outDir: string): void {
  const libDir = path.join(ROOT, 'lib');
  const sources = readdirSync(libDir, { recursive: true, encoding: 'utf8' }).filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.d.ts')).sort();
  const digest = createHash('sha256').update(ts.version).update(JSON.stringify(STRICT)).update(transpile.toString());
  for (const entry of sources) digest.update(entry).update('\0').update(readFileSync(path.join(libDir, entry))).update('\0');
  const cached = path.join(ROOT, 'node_modules', '.cache', 'lib-transpiled', digest.digest('hex').slice(0, 16));
  if (!existsSync(cached)) {
    const building = `${cached}.${process.pid}`;
    for (const entry of sources) {
      const out = path.join(building, entry.replace(/\.ts$/, '.js'));
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, transpile(readFileSync(path.join(libDir, entry), 'utf8'), path.join(libDir, entry)));
    }
    // Whole or not at all: another worker may be writing the same digest.
    try {
      renameSync(building, cached);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
    // Older sources' output is of no more use.
    for (const old of readdirSync(path.dirname(cached))) {
      if (/^[0-9a-f]{16}$/.test(old) && old !== path.basename(cached)) rmSync(path.join(path.dirname(cached), old), { recursive: true, force: true });
    }
  }
  cpSync(cached, outDir, { recursive: true });
}

/**
 * Writes each snippet, and every source of lib/, as JavaScript that Node runs
 * without a loader. Transpiled only: {@link compileSnippets} type-checks the
 * snippets.
 */
export function buildSnippets(snippets: Snippet[]): BuiltSnippets {
  const dir = snippetDir();
  const outDir = path.join(dir, 'out');
  const outOf = (file: string): string => path.join(outDir, path.relative(ROOT, file));
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    transpileLib(path.join(outDir, 'lib'));
    const programs = snippets.map(({ code, language = 'ts' }, i) => {
      if (language === 'cjs') {
        // Runs against the emitted sources (a CommonJS app requires the ES module build).
        const file = outOf(path.join(dir, `snippet-${i}.cjs`));
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, withPackagePaths(code, path.dirname(file), outDir));
        return file;
      }
      const file = path.join(dir, `snippet-${i}.mts`);
      const out = outOf(file).replace(/\.mts$/, '.mjs');
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, transpile(`${withPackagePaths(code, dir)}\nexport {};\n`, file));
      return out;
    });
    return { programs, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/**
 * Type-checks TypeScript snippets under strict, as a user's project would,
 * with the package's names mapped to its sources, in one program; returns
 * `"<name>: <message>"` for each diagnostic. Only the snippets are checked:
 * lib/ itself is the typecheck script's job, and the checker reads of it what
 * the snippets use. Nothing is left on disk.
 */
export function compileSnippets(snippets: Snippet[]): string[] {
  const dir = snippetDir();
  try {
    const typed = snippets.filter(({ language = 'ts' }) => language === 'ts');
    const files = typed.map(({ code }, i) => {
      const file = path.join(dir, `snippet-${i}.mts`);
      writeFileSync(file, `${withPackagePaths(code, dir)}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, { ...STRICT, noEmit: true });
    return files.flatMap((file, i) => ts.getPreEmitDiagnostics(program, program.getSourceFile(file))
      .filter((d) => d.file?.fileName === file)
      .map((d) => `${typed[i]!.name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Compiles `snippets` once before the describe block's tests (strict, no
 * skipLibCheck); `problemsOf(name)` gives the diagnostics of one of them.
 */
export function useCompiledSnippets(snippets: Snippet[]): { problemsOf(name: string): string[] } {
  let problems: string[] = [];
  beforeAll(() => {
    problems = compileSnippets(snippets);
  }, 60_000);
  return { problemsOf: (name) => problems.filter((p) => p.startsWith(`${name}:`)) };
}
