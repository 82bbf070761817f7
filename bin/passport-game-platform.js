#!/usr/bin/env node
// The `passport-game-platform` command. Installed from npm, it runs the compiled CLI in dist/.
// In a clone of the repository (tsconfig.json present: the package ships lib/ for its declaration
// maps, never tsconfig.json) it runs the TypeScript sources through tsx, so the command works
// right after `npm ci`, with no build step and never from a stale dist/.
import { existsSync } from 'node:fs';

const source = new URL('../lib/cli/main.ts', import.meta.url);
if (existsSync(new URL('../tsconfig.json', import.meta.url)) && existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
}
