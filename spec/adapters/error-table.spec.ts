import type { FaultSpec } from '../../lib/emulator/index.js';
import { DEFAULT_MEMBERS } from '../../lib/emulator/index.js';
import type { PlatformConfig } from '../../lib/config/index.js';
import { ADAPTERS, type AdapterServer, type StartAdapter } from '../support/adapter-servers.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { emulatorClients } from '../support/http-emulator-client.js';
import { headerOf, jsonOf, sendRaw } from '../support/raw-http.js';

// The error answers of protected routes, row by row, through every adapter
// (Express 4 and 5, passport, Nest on Express and Fastify, Nest with
// @nestjs/passport, Fastify), over real HTTP against the emulator.

const BARE = 'Bearer realm="game-platform"';
const IR = /^Bearer realm="game-platform", error="invalid_request"/;
const IT = /^Bearer realm="game-platform", error="invalid_token"/;

/** Which client the route uses: the good one, one for outages, or a misconfigured one. */
type ClientKind = 'good' | 'outage' | 'wrongSecret' | 'wrongGame';
// The kit's patient budgets: every fault below answers at once.
const CLIENT_CONFIG: Record<ClientKind, Partial<PlatformConfig>> = {
  good: {},
  outage: {},
  wrongSecret: { clientSecret: 'wrong-secret' },
  wrongGame: { gameId: 'other-game' },
};

interface Tokens {
  player: string;
  loggedOut: string;
  unregisteredDevice: string;
}

interface Row {
  name: string;
  lines?: (t: Tokens) => string[];
  path?: (t: Tokens) => string;
  client?: ClientKind;
  fault?: FaultSpec;
  status: number;
  action: string;
  code?: number;
  challenge?: string | RegExp;
  retryAfter?: boolean;
  /** Whether the platform may be called (a malformed request or token never reaches it). */
  calls: 0 | 1;
}

const bearer = (token: string) => [`Authorization: Bearer ${token}`];

const ROWS: Row[] = [
  { name: 'no credentials at all', status: 401, action: 'login', challenge: BARE, calls: 0 },
  { name: 'another scheme', lines: () => ['Authorization: Basic dXNlcjpwYXNz'], status: 401, action: 'login', challenge: BARE, calls: 0 },
  { name: 'Bearer with no token', lines: () => ['Authorization: Bearer'], status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'a tab after Bearer', lines: (t) => [`Authorization: Bearer\t${t.player}`], status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'extra parts', lines: (t) => [`Authorization: Bearer ${t.player} extra`], status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'two Authorization headers, the valid one first', lines: (t) => [...bearer(t.player), 'Authorization: Bearer bad'], status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'two Authorization headers, the valid one last', lines: (t) => ['Authorization: Bearer bad', ...bearer(t.player)], status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'a token in two places', lines: (t) => bearer(t.player), path: (t) => `/api/me?access_token=${t.player}`, status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'a repeated parameter', path: () => '/api/me?access_token=a&access_token=b', status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'characters outside b64token', lines: () => ['Authorization: Bearer ok"1'], status: 401, action: 'relogin', challenge: IT, calls: 0 },
  { name: 'a token over 4096 characters', lines: () => bearer(`ok${'a'.repeat(4095)}`), status: 401, action: 'relogin', challenge: IT, calls: 0 },
  { name: 'platform 40000 (logged out)', lines: (t) => bearer(t.loggedOut), status: 401, action: 'relogin', code: 40000, challenge: IT, calls: 1 },
  { name: 'platform 46217 (device not registered)', lines: (t) => bearer(t.unregisteredDevice), status: 403, action: 'register_device', code: 46217, calls: 1 },
  { name: 'platform unreachable', lines: (t) => bearer(t.player), client: 'outage', fault: { type: 'drop', endpoint: 'E2', count: -1 }, status: 503, action: 'retry_later', retryAfter: true, calls: 1 },
  { name: 'platform 5xx with an HTML body', lines: (t) => bearer(t.player), client: 'outage', fault: { type: 'http5xx', endpoint: 'E2', count: -1 }, status: 503, action: 'retry_later', retryAfter: true, calls: 1 },
  { name: 'platform 50000 after retries', lines: (t) => bearer(t.player), client: 'outage', fault: { type: 'code', code: 50000, endpoint: 'E2', count: -1 }, status: 503, action: 'retry_later', code: 50000, retryAfter: true, calls: 1 },
  { name: 'platform 40105 (wrong secret)', lines: (t) => bearer(t.player), client: 'wrongSecret', status: 500, action: 'contact_support', code: 40105, calls: 1 },
  { name: 'platform 41002 (Game ID of another game)', lines: (t) => bearer(t.player), client: 'wrongGame', status: 500, action: 'contact_support', code: 41002, calls: 1 },
  { name: 'platform 40101 after one reissue', lines: (t) => bearer(t.player), fault: { type: 'code', code: 40101, endpoint: 'E2', count: -1 }, status: 500, action: 'contact_support', code: 40101, calls: 1 },
];

const fixture = useEmulator();
const clients = emulatorClients(() => fixture.emulator);
let tokens: Tokens;
beforeAll(() => {
  const { emulator } = fixture;
  const loggedOut = emulator.login(DEFAULT_MEMBERS.player).access_token;
  emulator.logout(loggedOut);
  tokens = {
    player: emulator.login(DEFAULT_MEMBERS.bigIds).access_token,
    loggedOut,
    unregisteredDevice: emulator.login(DEFAULT_MEMBERS.unregisteredDevice).access_token,
  };
});
afterAll(() => clients.closeAll());

const platformCalls = () => fixture.emulator.requests().filter((r) => r.endpoint !== 'control').length;

describe.each(ADAPTERS)('%s', (_adapter, start: StartAdapter) => {
  const servers = new Map<ClientKind, Promise<AdapterServer>>();
  const server = (kind: ClientKind) => {
    let started = servers.get(kind);
    if (started === undefined) {
      started = start(clients.create(CLIENT_CONFIG[kind]));
      servers.set(kind, started);
    }
    return started;
  };
  afterAll(async () => {
    for (const started of servers.values()) await (await started).close();
  });

  it.each(ROWS)('$name -> $status $action', async (row) => {
    const { port } = await server(row.client ?? 'good');
    fixture.emulator.clearRequests();
    if (row.fault) fixture.emulator.injectFault(row.fault);
    const res = await sendRaw(port, { path: row.path?.(tokens) ?? '/api/me', lines: row.lines?.(tokens) ?? [] });
    const body = jsonOf(res);
    expect(res.status).toBe(row.status);
    expect(headerOf(res, 'content-type')).toBe('application/problem+json; charset=utf-8');
    expect(headerOf(res, 'cache-control')).toBe('no-store');
    expect(body).toMatchObject({ status: row.status, action: row.action, title: expect.any(String), type: expect.any(String), detail: expect.any(String) });
    if (row.code === undefined) expect(body).not.toHaveProperty('code');
    else expect(body?.code).toBe(row.code);
    const challenges = res.headers['www-authenticate'] ?? [];
    if (row.challenge === undefined) expect(challenges).toEqual([]);
    else if (typeof row.challenge === 'string') expect(challenges).toEqual([row.challenge]);
    else expect(challenges).toEqual([expect.stringMatching(row.challenge)]);
    if (row.retryAfter) expect(headerOf(res, 'retry-after')).toMatch(/^\d+$/);
    else expect(headerOf(res, 'retry-after')).toBeUndefined();
    if (row.calls === 0) expect(platformCalls()).toBe(0);
    else expect(platformCalls()).toBeGreaterThan(0);
    expect(res.body).not.toMatch(/PLATFORM_|secret|stack|at \/|ECONN/);
  });

  it('answers 200 with the exact identifiers for a valid token', async () => {
    const { port } = await server('good');
    const res = await sendRaw(port, { lines: [`Authorization: bearer   ${tokens.player}`] });
    expect(res.status).toBe(200);
    expect(jsonOf(res)).toMatchObject({ member_no: '9007199254740993', guid: '9007199254740995' });
  });
});
