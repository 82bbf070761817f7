#!/usr/bin/env node
// The README's Express quick starts (the TypeScript ESM app and the CommonJS one), the real-time
// guide's `ws` and Socket.IO servers, and the emulator, run by Bun and by Deno as a user runs
// them: the packed package, Express, ws and Socket.IO installed into an empty app, the emulator
// started with the package's command, each app started from the documents' own code. An HTTP
// program must answer 200 to a valid token, 401 to none and 401 to a bad one; a real-time one must
// send `session` to a valid token and refuse none; each must exit 0 on one SIGTERM.
//
//   node scripts/runtime-smoke.mjs --bun <bun binary> --deno <deno binary> [--json <report>]
//
// The report has the shape of Jest's (numPassedTests, numFailedTests, success), so CI's summary
// line counts it. Exit status 1 when any check failed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { io as socketIoClient } from 'socket.io-client';
import WebSocket from 'ws';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({ options: { bun: { type: 'string' }, deno: { type: 'string' }, json: { type: 'string' } } });
const PLAYER = '20005061987';

/** How each runtime starts a program file (Deno: every permission, as a server needs them). */
const RUNTIMES = [
  ...(args.bun ? [{ name: 'Bun', bin: args.bun, run: (file, rest = []) => [file, ...rest] }] : []),
  ...(args.deno ? [{ name: 'Deno', bin: args.deno, run: (file, rest = []) => ['run', '-A', file, ...rest] }] : []),
];
if (RUNTIMES.length === 0) {
  process.stderr.write('usage: node scripts/runtime-smoke.mjs --bun <bun> --deno <deno> [--json <report>]\n');
  process.exit(2);
}

/** The README's Express quick start blocks: the TypeScript app and the CommonJS one. */
function quickStarts() {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start (Express)'));
  const blocks = [...section.matchAll(/^```(ts|js) serve=\/api\/me\n([\s\S]*?)^```/gm)].slice(0, 2);
  const [ts, cjs] = blocks.map((m) => m[2]);
  if (!ts || !cjs) throw new Error('README.md: the quick start section no longer holds a ts and a js serve=/api/me block');
  return [{ file: 'server.ts', code: ts }, { file: 'server.cjs', code: cjs }];
}

/** The real-time guide's `ws` and Socket.IO servers. */
function realtimePrograms() {
  const guide = readFileSync(path.join(ROOT, 'docs', 'realtime.md'), 'utf8');
  const ws = /^```ts serve=ws:\/ws\n([\s\S]*?)^```/m.exec(guide)?.[1];
  const io = /^```ts serve=socket\.io\n([\s\S]*?)^```/m.exec(guide)?.[1];
  if (!ws || !io) throw new Error('docs/realtime.md no longer holds a serve=ws:/ws and a serve=socket.io block');
  return [{ file: 'realtime-ws.ts', code: ws, kind: 'ws' }, { file: 'realtime-socket-io.ts', code: io, kind: 'socket.io' }];
}

function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing in ${ms} ms`)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The first message of a `ws` connection, or the status its upgrade was refused with. */
function wsFirst(url, token) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
    socket.on('error', () => undefined);
    socket.once('message', (data) => { socket.close(); resolve(JSON.parse(String(data))); });
    socket.once('unexpected-response', (_req, res) => { resolve({ refused: res.statusCode }); socket.terminate(); });
    socket.once('close', () => reject(new Error('closed without a message')));
  });
}

/** Socket.IO's `session` event, or the connect_error message. */
function socketIoFirst(url, token) {
  return new Promise((resolve) => {
    const socket = socketIoClient(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: token === undefined ? {} : { token } });
    socket.once('session', (session) => { socket.close(); resolve(session); });
    socket.once('connect_error', (err) => { socket.close(); resolve({ refused: err.message }); });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function start(bin, argv, cwd, env) {
  const child = spawn(bin, argv, { cwd, env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => { output += c; });
  child.stderr.on('data', (c) => { output += c; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, output: () => output };
}

async function listening(url, program, ms = 30_000) {
  const until = Date.now() + ms;
  let ended = false;
  void program.exited.then(() => { ended = true; });
  while (Date.now() < until && !ended) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`not listening on ${url}:\n${program.output()}`);
}

async function stopped(program, ms = 15_000) {
  program.child.kill('SIGTERM');
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve({ code: 'still running', signal: null }), ms); });
  const ended = await Promise.race([program.exited, late]);
  clearTimeout(timer);
  program.child.kill('SIGKILL');
  return ended;
}

const results = [];
function record(name, ok, detail = '') {
  results.push({ name, ok });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail && !ok ? `\n${detail.replace(/^/gm, '     ')}` : ''}\n`);
}

async function expectStatus(label, url, headers, status) {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(20_000) });
  const body = await res.text();
  const ok = res.status === status && (status !== 200 || body.includes(PLAYER));
  record(label, ok, `expected ${status}, got ${res.status}: ${body}`);
}

const work = mkdtempSync(path.join(tmpdir(), 'pgp-runtime-smoke-'));
try {
  // The package as users get it: packed (the build runs on prepack) and installed with Express.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const versionOf = (name) => JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  const app = path.join(work, 'app');
  execFileSync('mkdir', ['-p', app]);
  const dependencies = { 'passport-game-platform': `file:${path.join(work, packed[0].filename)}`, express: versionOf('express'), ws: versionOf('ws'), 'socket.io': versionOf('socket.io') };
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'smoke-app', private: true, type: 'module', dependencies }, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app, stdio: 'inherit' });
  const programs = quickStarts();
  const realtime = realtimePrograms();
  for (const { file, code } of [...programs, ...realtime]) writeFileSync(path.join(app, file), code);
  const cli = path.join('node_modules', 'passport-game-platform', 'bin', 'passport-game-platform.js');

  for (const runtime of RUNTIMES) {
    const version = execFileSync(runtime.bin, ['--version'], { encoding: 'utf8' }).split('\n')[0];
    process.stdout.write(`== ${runtime.name} (${version})\n`);
    const emulatorPort = await freePort();
    const emulator = start(runtime.bin, runtime.run(cli, ['emulator', '--port', String(emulatorPort)]), app, {});
    const base = `http://127.0.0.1:${emulatorPort}`;
    try {
      await listening(`${base}/_emulator/health`, emulator);
      record(`${runtime.name}: the emulator starts (npx passport-game-platform emulator)`, true);
    } catch (err) {
      record(`${runtime.name}: the emulator starts (npx passport-game-platform emulator)`, false, String(err));
      await stopped(emulator);
      continue;
    }
    for (const { file } of programs) {
      const label = `${runtime.name}: README quick start ${file}`;
      const port = await freePort();
      const program = start(runtime.bin, runtime.run(file), app, {
        PORT: String(port), PLATFORM_BASE_URL: base, PLATFORM_CLIENT_ID: 'demo-client', PLATFORM_CLIENT_SECRET: 'demo-secret', PLATFORM_GAME_ID: 'demo-game',
      });
      const url = `http://127.0.0.1:${port}/api/me`;
      try {
        await listening(url, program);
        const login = await fetch(`${base}/_emulator/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ member_no: PLAYER, game_id: 'demo-game' }) });
        const { access_token: token } = await login.json();
        await expectStatus(`${label}: 200 for a valid token`, url, { authorization: `Bearer ${token}` }, 200);
        await expectStatus(`${label}: 401 for no token`, url, {}, 401);
        await expectStatus(`${label}: 401 for a bad token`, url, { authorization: 'Bearer not-a-token-the-platform-issued' }, 401);
      } catch (err) {
        record(`${label}: answers`, false, String(err));
      }
      const ended = await stopped(program);
      record(`${label}: exits 0 on SIGTERM`, ended.code === 0, `exit ${ended.code ?? ended.signal}\n${program.output()}`);
    }
    for (const { file, kind } of realtime) {
      const label = `${runtime.name}: docs/realtime.md ${kind} server`;
      const port = await freePort();
      const program = start(runtime.bin, runtime.run(file), app, {
        PORT: String(port), PLATFORM_BASE_URL: base, PLATFORM_CLIENT_ID: 'demo-client', PLATFORM_CLIENT_SECRET: 'demo-secret', PLATFORM_GAME_ID: 'demo-game',
      });
      try {
        await listening(`http://127.0.0.1:${port}/`, program);
        const login = await fetch(`${base}/_emulator/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ member_no: PLAYER, game_id: 'demo-game' }) });
        const { access_token: token } = await login.json();
        const ask = kind === 'ws' ? (t) => wsFirst(`ws://127.0.0.1:${port}/ws`, t) : (t) => socketIoFirst(`http://127.0.0.1:${port}`, t);
        const valid = await within(ask(token), 20_000, `${label} with a valid token`);
        record(`${label}: session for a valid token`, valid.member_no === PLAYER, JSON.stringify(valid));
        const none = await within(ask(undefined), 20_000, `${label} with no token`);
        record(`${label}: refuses no token`, none.refused === 401 || none.refused === 'login', JSON.stringify(none));
      } catch (err) {
        record(`${label}: answers`, false, `${err}\n${program.output()}`);
      }
      const ended = await stopped(program);
      record(`${label}: exits 0 on SIGTERM`, ended.code === 0, `exit ${ended.code ?? ended.signal}\n${program.output()}`);
    }
    const ended = await stopped(emulator);
    record(`${runtime.name}: the emulator exits 0 on SIGTERM`, ended.code === 0, `exit ${ended.code ?? ended.signal}\n${emulator.output()}`);
  }
} catch (err) {
  record('set-up', false, String(err?.stack ?? err));
} finally {
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter((r) => !r.ok).length;
const passed = results.length - failed;
process.stdout.write(`${passed} passed, ${failed} failed\n`);
if (args.json) writeFileSync(args.json, JSON.stringify({ success: failed === 0, numPassedTests: passed, numFailedTests: failed, results }));
process.exit(failed === 0 ? 0 : 1);
