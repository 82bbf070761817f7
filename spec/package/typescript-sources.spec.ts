import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// `npm start` runs the sources on Node's own type stripping through scripts/typescript-sources.mjs:
// a `./file.js` import finds `file.ts` when no `file.js` is there, the code runs as written (no
// transpiler wrapping it), and a missing module is still an error that names it.
const ROOT = path.resolve(import.meta.dirname, '../..');
const LOADER = path.join(ROOT, 'scripts', 'typescript-sources.mjs');
const run = promisify(execFile);

describe('scripts/typescript-sources.mjs', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pgp-ts-sources-'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(path.join(dir, 'sum.ts'), 'export function sum(a: number, b: number): number { return a + b; }\n');
    writeFileSync(path.join(dir, 'plain.js'), "export const plain = 'the .js file';\n");
    writeFileSync(path.join(dir, 'plain.ts'), "export const plain = 'the .ts file';\n");
    writeFileSync(path.join(dir, 'main.ts'), [
      "import { sum } from './sum.js';",
      "import { plain } from './plain.js';",
      'const twice = (n: number): number => sum(n, n);',
      'console.log(JSON.stringify({ four: twice(2), plain, source: sum.toString(), strips: process.features.typescript }));',
      '',
    ].join('\n'));
    writeFileSync(path.join(dir, 'missing.ts'), "import './nowhere.js';\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const node = (file: string): Promise<{ stdout: string; stderr: string }> =>
    run(process.execPath, ['--import', LOADER, path.join(dir, file)], { env: { ...process.env, NODE_OPTIONS: '' } });

  it('loads a .ts file imported as .js, prefers a real .js file, and runs the source as written', async () => {
    const { stdout, stderr } = await node('main.ts');
    expect(JSON.parse(stdout)).toEqual({
      four: 4,
      plain: 'the .js file',
      // Types blanked out in place, nothing renamed, wrapped or minified.
      source: 'function sum(a        , b        )         { return a + b; }',
      strips: 'strip',
    });
    expect(stderr).toBe('');
  });

  it('a module that is not there is still an error naming it', async () => {
    await expect(node('missing.ts')).rejects.toMatchObject({ stderr: expect.stringMatching(/ERR_MODULE_NOT_FOUND[\s\S]*nowhere\.js/) });
  });
});
