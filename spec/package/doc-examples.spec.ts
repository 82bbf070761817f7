import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The README's TypeScript blocks and every TSDoc example in lib/ must compile
// against the public entry points, so the docs cannot drift from the code.
const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY_POINTS: Record<string, string> = {
  'passport-game-platform': path.join(ROOT, 'lib', 'index.js'),
  'passport-game-platform/emulator': path.join(ROOT, 'lib', 'emulator', 'index.js'),
};

interface Example { name: string; code: string }

function tsdocExamples(): Example[] {
  const found: Example[] = [];
  const libDir = path.join(ROOT, 'lib');
  for (const entry of readdirSync(libDir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue;
    const text = readFileSync(path.join(libDir, entry), 'utf8');
    for (const match of text.matchAll(/@example\s*\n\s*\* ```ts\n([\s\S]*?)\n\s*\* ```/g)) {
      const code = (match[1] ?? '').split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n');
      // Fragments (no import) run inside an app that already has these names.
      if (!/^import /m.test(code)) continue;
      found.push({ name: `lib/${entry}`, code });
    }
  }
  return found;
}

function readmeExamples(): Example[] {
  const text = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match, i) => ({ name: `README.md block ${i + 1}`, code: match[1] ?? '' }));
}

function compile(examples: Example[]): string[] {
  // Inside the repository, so bare imports (express, passport) resolve from node_modules.
  const dir = path.join(ROOT, 'spec', 'output', `doc-examples-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const files = examples.map(({ code }, i) => {
      const file = path.join(dir, `example-${i}.mts`);
      const source = code.replace(/from '(passport-game-platform(?:\/emulator)?)'/g, (_, name: string) => `from ${JSON.stringify(ENTRY_POINTS[name])}`);
      writeFileSync(file, `${source}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      verbatimModuleSyntax: true,
    });
    return ts.getPreEmitDiagnostics(program)
      .filter((d) => d.file !== undefined && files.includes(d.file.fileName))
      .map((d) => `${examples[files.indexOf(d.file?.fileName ?? '')]?.name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('documentation examples', () => {
  // One program for all examples: type-checking lib/ once, not per source.
  const readme = readmeExamples();
  const tsdoc = tsdocExamples();
  let problems: string[] = [];
  beforeAll(() => {
    problems = compile([...readme, ...tsdoc]);
  }, 60_000);

  it('in the README compile against the published entry points', () => {
    expect(readme.length).toBeGreaterThanOrEqual(5);
    expect(problems.filter((p) => p.startsWith('README.md'))).toEqual([]);
  });

  it('in TSDoc comments compile against the published entry points', () => {
    expect(tsdoc.length).toBeGreaterThanOrEqual(5);
    expect(problems.filter((p) => p.startsWith('lib/'))).toEqual([]);
  });
});
