import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
  /** `"<name>: <message>"` for each diagnostic of a TypeScript snippet. */
  problems: string[];
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

/**
 * Type-checks TypeScript snippets under strict, as a user's project would,
 * with the package's names mapped to its sources, in one program (lib/ is
 * checked once). With `emit`, also writes each snippet and the sources it
 * imports as JavaScript that Node runs without a loader.
 */
export function buildSnippets(snippets: Snippet[], { emit = false } = {}): BuiltSnippets {
  // Inside the repository, so bare imports (express, passport) resolve from node_modules.
  const dir = path.join(ROOT, 'spec', 'output', `snippets-${process.pid}-${Date.now()}`);
  const outDir = path.join(dir, 'out');
  const outOf = (file: string): string => path.join(outDir, path.relative(ROOT, file));
  mkdirSync(dir, { recursive: true });
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  const tsFiles: string[] = [];
  const programs = snippets.map(({ code, language = 'ts' }, i) => {
    if (language === 'cjs') {
      const file = outOf(path.join(dir, `snippet-${i}.cjs`));
      mkdirSync(path.dirname(file), { recursive: true });
      // Runs against the emitted sources (a CommonJS app requires the ES module build).
      writeFileSync(file, withPackagePaths(code, path.dirname(file), outDir));
      return file;
    }
    const file = path.join(dir, `snippet-${i}.mts`);
    writeFileSync(file, `${withPackagePaths(code, dir)}\nexport {};\n`);
    tsFiles.push(file);
    return outOf(file).replace(/\.mts$/, '.mjs');
  });
  try {
    const program = ts.createProgram(tsFiles, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, skipLibCheck: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      verbatimModuleSyntax: true, resolveJsonModule: true,
      // Nest apps are written with TypeScript's decorators.
      experimentalDecorators: true, emitDecoratorMetadata: true,
      ...(emit ? { noEmit: false, outDir, rootDir: ROOT, sourceMap: false, declaration: false } : { noEmit: true }),
    });
    const problems = ts.getPreEmitDiagnostics(program)
      .filter((d) => d.file !== undefined && tsFiles.includes(d.file.fileName))
      .map((d) => `${snippets[programs.indexOf(outOf(d.file?.fileName ?? '').replace(/\.mts$/, '.mjs'))]?.name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    if (emit) program.emit();
    return { problems, programs, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/**
 * Type-checks snippets under strict; returns `"<name>: <message>"` for each
 * diagnostic. Nothing is left on disk.
 */
export function compileSnippets(snippets: Snippet[]): string[] {
  const built = buildSnippets(snippets);
  built.cleanup();
  return built.problems;
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
