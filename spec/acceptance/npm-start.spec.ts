import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { promisify } from 'node:util';
import { startEmulator } from '../../lib/emulator/index.js';
import { startAppProcess } from '../support/app-process.js';
import type { AppProcess } from '../support/app-process.js';

// `npm start` as a user runs it: the printed curl commands are run as printed
// and must answer what the printout says, so the quick start cannot drift.

const run = promisify(execFile);
const READY = /Ready: (http:\/\/127\.0\.0\.1:\d+)/;
const SLOW_MS = 60_000;

interface PrintedCall {
  command: string;
  status: number;
  body: Record<string, unknown>;
}

function printedCalls(stdout: string): PrintedCall[] {
  const lines = stdout.split('\n');
  const calls: PrintedCall[] = [];
  lines.forEach((line, i) => {
    const expectation = /^#\s+-> (\d{3}) (\{.*\})$/.exec(lines[i + 1] ?? '');
    if (line.startsWith('curl ') && expectation) {
      calls.push({ command: line, status: Number(expectation[1]), body: JSON.parse(expectation[2]!) as Record<string, unknown> });
    }
  });
  return calls;
}

async function curl(command: string): Promise<{ status: number; body: unknown }> {
  const { stdout } = await run('sh', ['-c', `${command} --max-time 10 -w '\\n%{http_code}'`]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: JSON.parse(stdout.slice(0, cut)) };
}

describe('npm start with no platform configured (embedded emulator)', () => {
  let app: AppProcess;
  let url: string;
  beforeAll(async () => {
    app = startAppProcess({ PORT: '0' });
    url = (await app.waitForOutput(READY))[1]!;
  }, SLOW_MS);
  afterAll(async () => {
    await app?.stop();
  });

  it('prints curl commands that answer as printed', async () => {
    const calls = printedCalls(app.stdout());
    expect(calls.map((c) => c.status)).toEqual([200, 200, 403, 200, 403, 401]);
    for (const call of calls) {
      const answer = await curl(call.command);
      expect({ command: call.command, status: answer.status }).toEqual({ command: call.command, status: call.status });
      expect(answer.body).toMatchObject(call.body);
    }
  }, SLOW_MS);

  it('prints a working command to mint a fresh token, and the event page URL', async () => {
    const mint = app.stdout().split('\n').find((l) => l.startsWith('curl -s -X POST') && l.includes('/_emulator/login'));
    expect(mint).toBeDefined();
    const { stdout } = await run('sh', ['-c', mint!]);
    expect(JSON.parse(stdout)).toMatchObject({ expires_in: 21600 });
    expect(app.stdout()).toContain(`${url}/event`);
    const page = await fetch(`${url}/event`);
    expect(page.status).toBe(200);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await app.stop()).toBe(0);
    expect(app.stdout()).toContain('SIGTERM: shutting down');
  });
});

describe('npm start failures', () => {
  it('exits 1 with a clear message when the port is in use', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const { port } = blocker.address() as AddressInfo;
    try {
      const app = startAppProcess({ PORT: String(port) });
      expect(await app.exited(SLOW_MS / 2)).toBe(1);
      expect(app.stderr()).toContain(`port ${port} is already in use: stop the other process or set PORT to a free port (PORT=0 picks one).`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, SLOW_MS);

  it('exits 1 naming the variable when ADMIN_MEMBER_NOS is malformed', async () => {
    const app = startAppProcess({ PORT: '0', ADMIN_MEMBER_NOS: 'alice' });
    expect(await app.exited(SLOW_MS / 2)).toBe(1);
    expect(app.stderr()).toContain('ADMIN_MEMBER_NOS must be comma-separated member numbers');
  }, SLOW_MS);

  it('exits 1 naming the variable when PLATFORM_OUTAGE_GRACE_MS is malformed', async () => {
    const app = startAppProcess({ PORT: '0', PLATFORM_OUTAGE_GRACE_MS: '2h' });
    expect(await app.exited(SLOW_MS / 2)).toBe(1);
    expect(app.stderr()).toContain('PLATFORM_OUTAGE_GRACE_MS must be a whole number of milliseconds');
  }, SLOW_MS);

  it('keeps serving with wrong credentials: one clear log line, then 500 contact_support', async () => {
    const emulator = await startEmulator();
    const app = startAppProcess({
      PORT: '0',
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_CLIENT_ID: 'demo-client',
      PLATFORM_CLIENT_SECRET: 'wrong-secret-value',
      PLATFORM_GAME_ID: 'demo-game',
    });
    try {
      const url = (await app.waitForOutput(/Listening, NOT READY: (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      expect(app.stdout()).not.toMatch(READY);
      const token = emulator.login('20005061987', 'demo-game').access_token;
      for (let i = 0; i < 2; i += 1) {
        const res = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(500);
        expect(await res.json()).toMatchObject({ action: 'contact_support', code: 40105 });
      }
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const lines = app.stderr().split('\n').filter((l) => l.includes('40105'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('PLATFORM_CLIENT_SECRET');
      expect(app.stdout() + app.stderr()).not.toContain('wrong-secret-value');
    } finally {
      await app.stop();
      await emulator.close();
    }
  }, SLOW_MS);

  it('with PLATFORM_OUTAGE_GRACE_MS, keeps serving a player verified before the platform went down (200), and only that one (503)', async () => {
    const emulator = await startEmulator();
    const app = startAppProcess({
      PORT: '0',
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_CLIENT_ID: 'demo-client',
      PLATFORM_CLIENT_SECRET: 'demo-secret',
      PLATFORM_GAME_ID: 'demo-game',
      PLATFORM_OUTAGE_GRACE_MS: '600000',
    });
    try {
      const url = (await app.waitForOutput(READY, SLOW_MS / 2))[1]!;
      expect(app.stdout()).toContain('Outage grace: 600000 ms');
      const me = (token: string): Promise<Response> => fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      const token = emulator.login('20005061987', 'demo-game').access_token;
      const verified = await me(token);
      // A normal answer carries no grace mark; one served in grace says so.
      expect([verified.status, await verified.json()]).toEqual([200, { member_no: '20005061987', guid: expect.any(String) }]);
      emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: Infinity });
      const served = await me(token);
      expect([served.status, await served.json()]).toEqual([200, { member_no: '20005061987', guid: expect.any(String), served_in_grace: true }]);
      expect((await me(emulator.login('20005061987', 'demo-game').access_token)).status).toBe(503);
    } finally {
      await app.stop();
      await emulator.close();
    }
  }, SLOW_MS);
});
