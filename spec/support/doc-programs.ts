import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Snippet } from './compile-snippets.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * How a documented program is checked once it runs: `script` runs to exit 0;
 * the others are servers on `PORT`, asked as a player would (HTTP path, `ws`
 * path, Socket.IO, a Colyseus room), then sent one SIGTERM.
 */
export type Probe =
  | { kind: 'script' }
  | { kind: 'http'; path: string }
  | { kind: 'ws'; path: string }
  | { kind: 'socket.io' }
  | { kind: 'colyseus'; room: string };

/** A code block of the README or a guide. */
export interface DocBlock extends Snippet {
  /** Marked ` fragment` on its fence: a piece of the program above it, neither compiled nor run. */
  fragment: boolean;
  probe: Probe;
}

function probeOf(info: string): Probe {
  const serve = /(?:^|\s)serve=(\S+)/.exec(info)?.[1];
  if (serve === undefined) return { kind: 'script' };
  if (serve.startsWith('/')) return { kind: 'http', path: serve };
  if (serve.startsWith('ws:')) return { kind: 'ws', path: serve.slice(3) };
  if (serve === 'socket.io') return { kind: 'socket.io' };
  if (serve.startsWith('colyseus:')) return { kind: 'colyseus', room: serve.slice(9) };
  throw new Error(`unknown serve= on a fence: ${serve}`);
}

/** The Markdown files whose code blocks are checked: the README and every guide. */
export function docFiles(): string[] {
  const guides = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...guides];
}

/** Every `ts` and `js` block of a Markdown file, with its fence's markers. */
export function docBlocks(file: string): DocBlock[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const blocks: DocBlock[] = [];
  let n = 0;
  for (const match of text.matchAll(/^```(ts|js)([^\n]*)\n([\s\S]*?)^```/gm)) {
    n += 1;
    const [, lang, info = '', code = ''] = match;
    const line = text.slice(0, match.index).split('\n').length;
    blocks.push({
      name: `${file}:${line} (block ${n})`,
      code,
      language: lang === 'js' ? 'cjs' : 'ts',
      fragment: /(?:^|\s)fragment(?:\s|$)/.test(info),
      probe: probeOf(info),
    });
  }
  return blocks;
}
