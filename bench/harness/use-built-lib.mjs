// `node --import tsx --import ./bench/harness/use-built-lib.mjs`: see built-lib.ts.
import { register } from 'node:module';

register('./built-lib-hooks.mjs', import.meta.url);
