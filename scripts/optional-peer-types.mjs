// After `tsc`: lets the published declarations import the types of optional
// peers (Express) without requiring them. An app without `@types/express`
// (JavaScript, Fastify-only, Nest on Fastify) compiles, even without
// skipLibCheck, and sees `any` where Express's types would be; an Express app
// with `@types/express` gets the full types. The line added on top of a
// declaration file shifts its declaration map by one line (a leading `;`).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const OPTIONAL = ['express'];
const IGNORE = "// @ts-ignore -- an optional peer's types: `any` when they are not installed.";
const root = path.resolve(process.argv[2] ?? 'dist');

for (const entry of await readdir(root, { recursive: true })) {
  if (!entry.endsWith('.d.ts')) continue;
  const file = path.join(root, entry);
  const text = await readFile(file, 'utf8');
  const lines = text.split('\n');
  const out = [];
  let added = 0;
  for (const line of lines) {
    if (OPTIONAL.some((name) => line.startsWith('import ') && line.endsWith(` from '${name}';`)) && out.at(-1) !== IGNORE) {
      out.push(IGNORE);
      added += 1;
    }
    out.push(line);
  }
  if (added === 0) continue;
  await writeFile(file, out.join('\n'));
  const mapFile = `${file}.map`;
  const map = JSON.parse(await readFile(mapFile, 'utf8').catch(() => 'null'));
  if (map !== null) {
    // Each added line sits above the first mapped line only when the imports come first, which tsc guarantees.
    map.mappings = ';'.repeat(added) + map.mappings;
    await writeFile(mapFile, JSON.stringify(map));
  }
}
