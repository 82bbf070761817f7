import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// What the package teaches must be readable by its users: no sentence in the README, docs/,
// the sources, the example app, the examples, the tests or the bench may send a reader to a
// document that is not in the repository
// (the team's private notes, numbered lists of pitfalls, the issue a fix came from). And the README's links must work on
// the npm page, which shows the README without the repository around it.
const ROOT = path.resolve(import.meta.dirname, '../..');
const OUTSIDE = [
  /\bCONTRACT\b/,
  /\bRELIABILITY\b/,
  /\btraps? \d+/i,
  /platform-notes/,
  /platform-auth-spec/,
  /STYLE\.md/,
  /\/work\/shared/,
  // The history of a fix belongs in the commit log: a comment says why the code is as it is.
  /\bissues? #?\d+/i,
  /\bfindings?( \d+|:)/i,
  /\bthe spec says\b/i,
];

function textFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((entry) => /\.(ts|mts|mjs|js|md|html)$/.test(entry))
    .map((entry) => path.join(dir, entry));
}

describe('documentation stands on its own', () => {
  const files = [
    'README.md', ...textFiles('docs'), ...textFiles('lib'), ...textFiles('example-app'), ...textFiles('examples'), ...textFiles('bench'),
    ...textFiles('spec').filter((file) => !file.endsWith('no-outside-references.spec.ts') && !file.includes(`output${path.sep}`)),
  ];

  it('recognises what it looks for', () => {
    // Assembled at run time, so this file holds no such comment itself.
    const samples = [['// Issue', '12 finding 3: retries'], ['// Finding', ' the header'], ['// Findings', ' on shutdown'], ['see issue', '#7'], ['The spec', 'says so'], ['CONTRACT', 'row 4']]
      .map(([head, tail]) => `${head}${tail!.startsWith(' ') ? ':' : ' '}${tail}`);
    expect(samples.filter((line) => !OUTSIDE.some((re) => re.test(line)))).toEqual([]);
    expect(OUTSIDE.some((re) => re.test('// a reissued token; the finding of a member'))).toBe(false);
  });

  it('points to no document outside the repository', () => {
    const found: string[] = [];
    for (const file of files) {
      readFileSync(path.join(ROOT, file), 'utf8').split('\n').forEach((line, i) => {
        if (OUTSIDE.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(files.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  it('links from the README to its own headings, absolute URLs, or files it ships beside it (npm\'s page resolves those against the repository)', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(5);
    const relative = targets.filter((t) => !t.startsWith('#') && !/^https:\/\//.test(t));
    // Relative: a file of the repository (spec/package/doc-links.spec.ts checks that the package ships it).
    expect(relative.filter((t) => !/^[\w./-]+\.md(#[\w-]+)?$/.test(t) || readFileSync(path.join(ROOT, t.split('#')[0]!), 'utf8').length === 0)).toEqual([]);
    const headings = new Set([...readme.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));
    expect(targets.filter((t) => t.startsWith('#') && !headings.has(t.slice(1)))).toEqual([]);
  });
});
