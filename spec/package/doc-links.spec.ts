import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { docFiles } from '../support/doc-programs.js';

// The guides link to each other, to their charts and to headings; a renamed
// file or heading must not leave a reader on a dead link.
const ROOT = path.resolve(import.meta.dirname, '../..');

function anchors(file: string): Set<string> {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return new Set([...text.matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));
}

describe('links between the guides', () => {
  it('point to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of docFiles().filter((f) => f.startsWith('docs/'))) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https?:\/\//.test(target!)) continue;
        const [relative, anchor] = target!.split('#');
        const linked = relative === '' ? file : path.join(path.dirname(file), relative!);
        if (!existsSync(path.join(ROOT, linked))) broken.push(`${file}: ${target}`);
        else if (anchor !== undefined && linked.endsWith('.md') && !anchors(linked).has(anchor)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('from the README and the guides point to files the package ships, so they resolve in node_modules', () => {
    const files = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
    const shipped = (file: string): boolean => files.some((entry) => (entry.endsWith('/*.md')
      ? path.dirname(file) === entry.slice(0, -'/*.md'.length) && file.endsWith('.md')
      : file === entry || file.startsWith(`${entry}/`)));
    const outside: string[] = [];
    for (const file of docFiles()) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        // A link into this repository's main branch shows today's file, not the installed version's.
        if (target!.includes('github.com/passport-game-platform/passport-game-platform/blob/')) outside.push(`${file}: ${target}`);
        if (/^https?:\/\//.test(target!)) continue;
        const relative = target!.split('#')[0]!;
        const linked = path.normalize(relative === '' ? file : path.join(path.dirname(file), relative));
        if (!shipped(linked)) outside.push(`${file}: ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('name only test and bench files that exist', () => {
    const missing: string[] = [];
    for (const file of [...docFiles(), 'CONTRIBUTING.md']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [named] of text.matchAll(/\b(?:spec|bench)\/[\w./-]+\.ts\b/g)) {
        if (!existsSync(path.join(ROOT, named))) missing.push(`${file}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('show every chart the bench draws', () => {
    const guide = readFileSync(path.join(ROOT, 'docs/performance.md'), 'utf8');
    for (const chart of ['steady-rps', 'steady-p99', 'scale-out-e2', 'handshakes']) {
      expect(guide).toContain(`images/${chart}.svg`);
      expect(readFileSync(path.join(ROOT, 'docs/images', `${chart}.svg`), 'utf8')).toMatch(/^<svg /);
    }
  });
});
