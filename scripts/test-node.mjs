#!/usr/bin/env node
// `npm test` on the Node first on PATH: the checks (typecheck, lint, duplication) and Jest run
// at the same time. Jest's workers spend much of their time waiting on sockets, timers and child
// processes; the checks take that idle CPU instead of running alone first. They run niced, so a
// test waiting on an event is not kept from the CPU by a type checker. Their output is held and
// printed after Jest's (a failure at once as well), so each stays readable; the exit status fails
// when either part fails.
// Arguments go to Jest (`npm test -- spec/ws`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import process from 'node:process';

const require = createRequire(import.meta.url);
const jestBin = require.resolve('jest/bin/jest');

const checks = spawn('nice', ['-n', '10', 'npm', 'run', '--silent', 'checks'], { stdio: ['ignore', 'pipe', 'pipe'] });
let checksOutput = '';
checks.stdout.setEncoding('utf8').on('data', (chunk) => { checksOutput += chunk; });
checks.stderr.setEncoding('utf8').on('data', (chunk) => { checksOutput += chunk; });
const checksDone = new Promise((resolve) => {
  checks.once('error', (error) => { checksOutput += `cannot run the checks: ${error.message}\n`; resolve(1); });
  checks.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
}).then((code) => {
  // A failed check is shown at once, not only after the last test.
  if (code !== 0) process.stdout.write(`\n--- checks FAILED (typecheck, lint, cpd) ---\n${checksOutput}\n`);
  return code;
});

const jest = spawn(process.execPath, [jestBin, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules' },
});
const jestDone = new Promise((resolve) => {
  jest.once('error', () => resolve(1));
  jest.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
});

const [jestCode, checksCode] = await Promise.all([jestDone, checksDone]);
if (checksCode === 0) process.stdout.write(`\n--- checks (typecheck, lint, cpd) ---\n${checksOutput}checks: passed\n`);
else process.stdout.write(`\n--- checks (typecheck, lint, cpd) ---\n${checksOutput}checks: FAILED (exit ${checksCode})\n`);
if (jestCode !== 0) process.stdout.write(`jest: FAILED (exit ${jestCode})\n`);
process.exitCode = jestCode === 0 && checksCode === 0 ? 0 : 1;
