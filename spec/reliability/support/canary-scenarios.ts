import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MEMBERS, DEFAULT_SEED } from '../../../lib/emulator/index.js';
import type { EmulatorSeed, FaultSpec } from '../../../lib/emulator/index.js';
import { DEMO } from '../../support/app-harness.js';
import { BAD_INPUT_ROWS } from './bad-input-rows.js';
import type { CanaryCapture } from './canary-capture.js';
import type { RawSpec } from '../../support/raw-http.js';
import { startReliabilityApp } from './reliability-app.js';
import type { ReliabilityApp } from './reliability-app.js';

/** The seeded client secret, a wrong one, and a user token the platform does not know. */
export const CANARY = {
  clientId: 'canary-client',
  secret: 'CANARY-SECRET-7f3a9c2e51d84b06',
  wrongSecret: 'CANARY-WRONG-SECRET-0b1e77aa93c4',
  unknownUserToken: 'CANARYuserTOKEN-5d2c8e1f0a9b',
} as const;

export const CANARY_SEED: EmulatorSeed = {
  clients: [{ client_id: CANARY.clientId, client_secret: CANARY.secret, service_id: DEMO.gameId }, ...DEFAULT_SEED.clients],
  members: DEFAULT_SEED.members,
};

/** A loopback port nothing listens on (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An example app on the canary credentials, its output fed to `cap`. */
export async function canaryApp(cap: CanaryCapture, client: Record<string, unknown> = {}): Promise<ReliabilityApp> {
  const app = await startReliabilityApp({
    emulator: { seed: CANARY_SEED },
    client: {
      clientId: CANARY.clientId, clientSecret: CANARY.secret, timeoutMs: 100, totalTimeoutMs: 250, retries: 1,
      circuitBreaker: { failureThreshold: 5, openMs: 1000 }, ...client,
    },
  });
  const mint = app.token;
  app.token = (memberNo) => cap.canary(mint(memberNo));
  const send = app.send;
  app.send = async (spec?: RawSpec) => {
    const res = await send(spec);
    cap.add(res.text);
    return res;
  };
  app.bearer = (token, path = '/api/me') => app.send({ path, lines: [`Authorization: Bearer ${token}`] });
  return app;
}

/** The API token the emulator holds for the canary client (E1 hands the same one back). */
export async function apiTokenOf(app: ReliabilityApp): Promise<string> {
  const res = await fetch(`${app.emulator.url}/auth/v5/server_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: CANARY.clientId, client_secret: CANARY.secret, service_id: DEMO.gameId }),
  });
  const body = (await res.json()) as { response_data: { access_token: string } };
  return body.response_data.access_token;
}

const E2_FAULTS: FaultSpec[] = [
  { type: 'code', code: 50000, count: -1 }, { type: 'http5xx', count: -1 }, { type: 'drop', count: -1 },
  { type: 'garbage', variant: 'html', count: -1 }, { type: 'garbage', variant: 'json-without-code', count: -1 },
  { type: 'garbage', variant: 'truncated-json', count: -1 }, { type: 'hang', count: -1 },
  { type: 'latency', latencyMs: 150, count: -1 }, { type: 'code', code: 40101, count: 1 }, { type: 'code', code: 40103, count: 1 },
  { type: 'code', code: 46217, count: -1 }, { type: 'code', code: 12345, count: -1 }, { type: 'code', code: 41002, count: -1 },
  { type: 'code', code: 40101, count: -1 },
];

/** Every kind of request and platform fault, through one canary app. */
export async function runCanaryScenarios(app: ReliabilityApp, cap: CanaryCapture): Promise<void> {
  const { emulator } = app;
  const player = (): string => app.token(DEFAULT_MEMBERS.player);
  await app.bearer(player());
  await app.bearer(app.token(DEFAULT_MEMBERS.admin), `/admin/members?search_type=member_no&value=${DEFAULT_MEMBERS.player}`);
  const web = cap.canary(emulator.issueWebToken(DEFAULT_MEMBERS.player));
  await app.send({ path: '/api/event/me', lines: [`Cookie: SUAT=${web}`] });
  await app.send({ path: '/api/event/me', lines: [`Cookie: SUAT=${web}x`] });
  for (const row of BAD_INPUT_ROWS) await app.send(row.request(player()));
  for (const fault of E2_FAULTS) {
    emulator.injectFault({ endpoint: 'E2', ...fault });
    await app.bearer(player());
    await app.bearer(cap.canary(CANARY.unknownUserToken));
    emulator.clearFaults();
    await app.bearer(player()); // an answer between faults keeps the circuit closed
  }
  for (const fault of [{ type: 'code', code: 40000 }, { type: 'code', code: 50000 }, { type: 'http5xx' }, { type: 'code', code: 40101 }] as FaultSpec[]) {
    emulator.injectFault({ endpoint: 'E3', count: 3, ...fault });
    await app.bearer(app.token(DEFAULT_MEMBERS.admin), `/admin/members?search_type=guid&value=${DEMO.playerGuid}`);
    emulator.clearFaults();
  }
  // A run of 40000s across distinct tokens; the probe finds our API token refused.
  emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40101, count: 1 });
  for (let i = 0; i < 25; i += 1) await app.bearer(cap.canary(`CANARYrun${i}x${CANARY.unknownUserToken}`));
  // The circuit opens, probes and closes.
  emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: -1 });
  for (let i = 0; i < 8; i += 1) await app.bearer(player());
  emulator.clearFaults();
  app.clock.advance(1000);
  await app.bearer(player());
}
