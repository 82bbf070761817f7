import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileSnippets } from '../support/compile-snippets.js';
import type { Snippet } from '../support/compile-snippets.js';

// The README's TypeScript blocks and every TSDoc example in lib/ must compile
// against the public entry points, so the docs cannot drift from the code.
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

function readmeExamples(): Snippet[] {
  const text = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match, i) => ({ name: `README.md block ${i + 1}`, code: match[1] ?? '' }));
}

describe('documentation examples', () => {
  // One program for all examples: type-checking lib/ once, not per source.
  const readme = readmeExamples();
  const tsdoc = tsdocExamples();
  let problems: string[] = [];
  beforeAll(() => {
    problems = compileSnippets([...readme, ...tsdoc]);
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
