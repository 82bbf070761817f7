// Two fresh copies of lib/ for the instrumentation bench: `published`, the library as it is, and
// `no-publishing`, where every `<name>Channel.hasSubscribers` check is the constant `false`, so
// nothing about the channels is left on any path (no check, no message, no trace()). Compared
// while nobody subscribes, the difference is what the checks cost. Both are copies (neither is
// the module graph the emulator and the recipes load), so they differ in the checks alone.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const LIB = fileURLToPath(new URL('../../lib/', import.meta.url));
/** Inside the repository so the copy resolves the same node_modules; git-ignored. */
const OUT = fileURLToPath(new URL('../.no-publish/', import.meta.url));
const CHECK = /\b[A-Za-z]+Channel\.hasSubscribers\b/g;

export interface NoPublishBuild {
  /** The copies' entry points, for `import()`. */
  entries: { published: string; noPublishing: string };
  /** Checks replaced, and the files that had any. */
  checks: number;
  files: string[];
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

export function buildNoPublish(): NoPublishBuild {
  rmSync(OUT, { recursive: true, force: true });
  let checks = 0;
  const files: string[] = [];
  for (const source of sources(LIB)) {
    const name = relative(LIB, source);
    const text = readFileSync(source, 'utf8');
    const found = text.match(CHECK)?.length ?? 0;
    if (found > 0) {
      checks += found;
      files.push(`lib/${name}`);
    }
    for (const [copy, content] of [['published', text], ['no-publishing', text.replace(CHECK, 'false')]] as const) {
      const target = join(OUT, copy, 'lib', name);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  }
  if (checks === 0) throw new Error('no-publish build: no hasSubscribers check found in lib/ (has the seam moved?)');
  const entry = (copy: string): string => pathToFileURL(join(OUT, copy, 'lib', 'index.ts')).href;
  return { entries: { published: entry('published'), noPublishing: entry('no-publishing') }, checks, files };
}
