import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';

// The TSDoc examples of the config, http, provider and client layers must
// compile against the public barrel, so the docs cannot drift from the code.
const ROOT = path.resolve(import.meta.dirname, '../..');
const LAYERS = ['config', 'http', 'provider', 'client'];

function examples(): { name: string; code: string }[] {
  const found: { name: string; code: string }[] = [];
  for (const layer of LAYERS) {
    const dir = path.join(ROOT, 'lib', layer);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      for (const match of text.matchAll(/@example\s*\n\s*\* ```ts\n([\s\S]*?)\n\s*\* ```/g)) {
        const code = (match[1] ?? '').split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n');
        found.push({ name: `${layer}/${file}`, code });
      }
    }
  }
  return found;
}

describe('TSDoc examples', () => {
  it('compile against the public barrel', () => {
    const found = examples();
    expect(found.length).toBeGreaterThanOrEqual(5);
    const dir = mkdtempSync(path.join(tmpdir(), 'pgp-examples-'));
    try {
      const barrel = path.join(ROOT, 'lib', 'index.js');
      const files = found.map(({ code }, i) => {
        const file = path.join(dir, `example-${i}.mts`);
        writeFileSync(file, `${code.replaceAll("'passport-game-platform'", JSON.stringify(barrel))}\nexport {};\n`);
        return file;
      });
      const program = ts.createProgram(files, {
        target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        verbatimModuleSyntax: true,
      });
      const problems = ts.getPreEmitDiagnostics(program)
        .filter((d) => d.file !== undefined && files.includes(d.file.fileName))
        .map((d) => `${found[files.indexOf(d.file?.fileName ?? '')]?.name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
