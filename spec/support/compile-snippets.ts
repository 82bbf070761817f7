import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY_POINTS: Record<string, string> = {
  'passport-game-platform': path.join(ROOT, 'lib', 'index.js'),
  'passport-game-platform/emulator': path.join(ROOT, 'lib', 'emulator', 'index.js'),
  'passport-game-platform/nest': path.join(ROOT, 'lib', 'nest', 'index.js'),
  'passport-game-platform/fastify': path.join(ROOT, 'lib', 'fastify', 'index.js'),
  'passport-game-platform/testkit': path.join(ROOT, 'lib', 'testkit', 'index.js'),
  'passport-game-platform/ws': path.join(ROOT, 'lib', 'ws', 'index.js'),
  'passport-game-platform/socket.io': path.join(ROOT, 'lib', 'socket-io', 'index.js'),
  'passport-game-platform/opentelemetry': path.join(ROOT, 'lib', 'opentelemetry', 'index.js'),
  'passport-game-platform/prometheus': path.join(ROOT, 'lib', 'prometheus', 'index.js'),
  'passport-game-platform/redis': path.join(ROOT, 'lib', 'redis', 'index.js'),
  'passport-game-platform/colyseus': path.join(ROOT, 'lib', 'colyseus', 'index.js'),
};

/** A piece of TypeScript a user would write, importing the package by name. */
export interface Snippet {
  name: string;
  code: string;
}

/**
 * Type-checks snippets under strict, as a user's project would, with the
 * package's names mapped to its sources; returns `"<name>: <message>"` for
 * each diagnostic. One program for all snippets: lib/ is checked once.
 */
export function compileSnippets(snippets: Snippet[]): string[] {
  // Inside the repository, so bare imports (express, passport) resolve from node_modules.
  const dir = path.join(ROOT, 'spec', 'output', `snippets-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  try {
    const files = snippets.map(({ code }, i) => {
      const file = path.join(dir, `snippet-${i}.mts`);
      const source = code.replace(/from '(passport-game-platform(?:\/emulator|\/nest|\/fastify|\/testkit|\/ws|\/socket\.io|\/opentelemetry|\/prometheus|\/redis|\/colyseus)?)'/g, (_, name: string) => `from ${JSON.stringify(ENTRY_POINTS[name])}`);
      writeFileSync(file, `${source}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      verbatimModuleSyntax: true,
      // Nest apps are written with TypeScript's decorators.
      experimentalDecorators: true, emitDecoratorMetadata: true,
    });
    return ts.getPreEmitDiagnostics(program)
      .filter((d) => d.file !== undefined && files.includes(d.file.fileName))
      .map((d) => `${snippets[files.indexOf(d.file?.fileName ?? '')]?.name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
