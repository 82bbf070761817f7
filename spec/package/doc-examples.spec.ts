import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileSnippets, type Snippet } from '../support/compile-snippets.js';
import { docBlocks, docFiles, type DocBlock } from '../support/doc-programs.js';

// Every code block of the README and the guides is a complete program or is
// marked a fragment. Complete programs are type-checked under strict in one
// program with every TSDoc example of lib/ (doc-programs.spec.ts runs them).
const ROOT = path.resolve(import.meta.dirname, '../..');

function tsdocExamples(): Snippet[] {
  const found: Snippet[] = [];
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

describe('documentation examples', () => {
  const blocks: DocBlock[] = docFiles().flatMap(docBlocks);
  const programs = blocks.filter((b) => !b.fragment);
  const tsdoc = tsdocExamples();
  let problems: string[] = [];
  beforeAll(() => {
    problems = compileSnippets([...programs, ...tsdoc]);
  }, 120_000);

  it('in the README and docs/ are complete programs or marked fragments, and compile strict', () => {
    expect(programs.length).toBeGreaterThanOrEqual(13);
    expect(problems.filter((p) => !p.startsWith('lib/'))).toEqual([]);
  });

  it('in TSDoc comments compile against the published entry points', () => {
    expect(tsdoc.length).toBeGreaterThanOrEqual(5);
    expect(problems.filter((p) => p.startsWith('lib/'))).toEqual([]);
  });

  it('in each guide start with a complete program that reads fromEnv()', () => {
    for (const file of docFiles().filter((f) => f.startsWith('docs/') && f !== 'docs/ARCHITECTURE.md')) {
      const first = docBlocks(file)[0];
      expect({ file, complete: first !== undefined && !first.fragment, fromEnv: first?.code.includes('fromEnv(') }).toEqual({ file, complete: true, fromEnv: true });
    }
  });
});
