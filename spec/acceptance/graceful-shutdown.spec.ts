import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { startAppProcess } from '../support/app-process.js';
import type { AppProcess } from '../support/app-process.js';
import { DEMO } from '../support/app-harness.js';
import { io as ioClient } from 'socket.io-client';
import WebSocket from 'ws';

// SIGTERM while a request waits for a slow platform: a request within its
// budget (6 s of platform latency) gets its answer; a fixed cut of every
// connection a few seconds after SIGTERM would reset it.

const READY = /Ready: (http:\/\/127\.0\.0\.1:\d+)/;
const LATENCY_MS = 3000;
const SLOW_MS = 40_000;

/** One GET on a keep-alive connection; resolves with the status and body, rejects on a reset. */
function get(url: string, token: string, agent: http.Agent): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('graceful shutdown of the example app', () => {
  let emulator: Emulator;
  let app: AppProcess | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ host: '127.0.0.1' });
  });
  afterEach(async () => {
    if (app !== undefined && app.child.exitCode === null) app.child.kill('SIGKILL');
    app = undefined;
  });
  afterAll(() => emulator.close());

  const start = async (): Promise<string> => {
    app = startAppProcess({
      PORT: '0',
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_CLIENT_ID: DEMO.clientId,
      PLATFORM_CLIENT_SECRET: DEMO.clientSecret,
      PLATFORM_GAME_ID: DEMO.gameId,
      PLATFORM_TIMEOUT_MS: '8000',
    });
    return (await app.waitForOutput(READY))[1]!;
  };

  it('answers a request waiting on a slow platform after SIGTERM (never a reset), then exits 0 within its budget', async () => {
    const url = await start();
    const agent = new http.Agent({ keepAlive: true });
    const token = emulator.login(DEMO.player, DEMO.gameId).access_token;
    emulator.clearRequests();
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: LATENCY_MS, count: 1 });
    const answer = get(`${url}/api/me`, token, agent);
    while (emulator.requests({ endpoint: 'E2' }).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const signalled = performance.now();
    app!.child.kill('SIGTERM');
    await app!.waitForOutput(/SIGTERM: shutting down/);
    // No new connection is accepted once SIGTERM arrived.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ member_no: DEMO.player });
    expect(res.connection).toBe('close');
    const code = await app!.exited(20_000);
    const took = performance.now() - signalled;
    expect(code).toBe(0);
    // It waited for the slow answer, then exited on its own (the wait above is only the test's patience).
    expect(took).toBeGreaterThan(LATENCY_MS - 1000);
    agent.destroy();
  }, SLOW_MS);

  it('closes an idle keep-alive connection at SIGTERM and one in flight after its answer, then exits 0', async () => {
    const url = await start();
    const token = emulator.login(DEMO.player, DEMO.gameId).access_token;
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(`${url}/api/me`, token, idleAgent);
    expect({ status: first.status, connection: first.connection }).toEqual({ status: 200, connection: 'keep-alive' });
    const [idle] = Object.values(idleAgent.freeSockets).flat();
    const idleClosed = new Promise<void>((resolve) => idle!.once('close', () => resolve()));
    // A second connection, its request waiting on the platform when the signal comes.
    emulator.clearRequests();
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1000, count: 1 });
    const busyAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answer = get(`${url}/api/me`, token, busyAgent);
    while (emulator.requests({ endpoint: 'E2' }).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    app!.child.kill('SIGTERM');
    await idleClosed;
    expect(await answer).toMatchObject({ status: 200, connection: 'close' });
    expect(await app!.exited(20_000)).toBe(0);
    idleAgent.destroy();
    busyAgent.destroy();
  }, SLOW_MS);

  it('exits at once on a second SIGTERM', async () => {
    await start();
    const token = emulator.login(DEMO.player, DEMO.gameId).access_token;
    // The E2 call waited for below is this request's, not one an earlier test left in the log.
    emulator.clearRequests();
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 20_000, count: 1 });
    const agent = new http.Agent({ keepAlive: true });
    const url = READY.exec(app!.stdout())![1]!;
    get(`${url}/api/me`, token, agent).catch(() => {});
    while (emulator.requests({ endpoint: 'E2' }).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    app!.child.kill('SIGTERM');
    await app!.waitForOutput(/SIGTERM: shutting down/);
    app!.child.kill('SIGTERM');
    // Exited with 1 while the request still waits on its 20 s answer: it did not wait for it.
    expect(await app!.exited(15_000)).toBe(1);
    expect(emulator.requests({ endpoint: 'E2' }).map((e) => e.status)).toEqual([null]);
    agent.destroy();
  }, SLOW_MS);
  it('ends live connections on SIGTERM: ws gets session:ended shutdown and 1001, Socket.IO session:ended shutdown', async () => {
    const url = await start();
    const headers = { Authorization: `Bearer ${emulator.login(DEMO.player, DEMO.gameId).access_token}` };
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers });
    const wsMessages: unknown[] = [];
    ws.on('message', (data) => wsMessages.push(JSON.parse(String(data))));
    const wsClosed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
    await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
    const socket = ioClient(url, { auth: { token: emulator.login(DEMO.player, DEMO.gameId).access_token }, transports: ['websocket'], reconnection: false });
    const ioEnded = new Promise<unknown>((resolve) => socket.on('session:ended', resolve));
    const ioGone = new Promise<string>((resolve) => socket.on('disconnect', resolve));
    await new Promise<void>((resolve, reject) => { socket.once('session', () => resolve()); socket.once('connect_error', reject); });

    app!.child.kill('SIGTERM');
    expect(await wsClosed).toEqual({ code: 1001, reason: 'shutdown' });
    expect(wsMessages.at(-1)).toEqual({ type: 'session:ended', reason: 'shutdown' });
    expect(await ioEnded).toEqual({ reason: 'shutdown' });
    expect(await ioGone).toBe('io server disconnect');
    expect(await app!.exited(20_000)).toBe(0);
    socket.close();
  }, SLOW_MS);
});
