import { spawn } from 'node:child_process';

// E1 and E2 answered with fixed bodies on keep-alive connections (E2 after LATENCY_MS when it is
// above 0): a platform whose own work is as small as can be, in a process of its own so that none
// of it is counted.
const STUB = `
const http = require('node:http');
let latencyMs = Number(process.env.LATENCY_MS);
process.on('message', (m) => { latencyMs = Number(m); process.send('latency'); });
const e1 = JSON.stringify({ code: 0, message: 'Success', response_data: { access_token: 'stub-api-token', expires_in: 21600 } });
const e2 = '{"code":0,"message":"Success","value":{"member_no":20005061986,"guid":200000000397}}';
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url.includes('server_token')) res.end(e1);
    else if (latencyMs > 0) setTimeout(() => res.end(e2), latencyMs);
    else res.end(e2);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

/** A stub platform for CPU measurements: every token is valid, every member the same. */
export interface StubPlatform {
  readonly url: string;
  /**
   * PLATFORM_* variables of a server on the stub: its URL and credentials (it accepts any; the
   * example app refuses to start without them).
   */
  readonly serverEnv: Readonly<Record<string, string>>;
  /** E2 answers `latencyMs` after the request from now on. */
  setLatency(latencyMs: number): Promise<void>;
  stop(): void;
}

/** Starts the stub; E2 answers `latencyMs` after the request (default at once). */
export async function startStubPlatform(latencyMs = 0): Promise<StubPlatform> {
  const child = spawn(process.execPath, ['-e', STUB], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, LATENCY_MS: String(latencyMs) } });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    serverEnv: Object.freeze({ PLATFORM_BASE_URL: url, PLATFORM_CLIENT_ID: 'bench-client', PLATFORM_CLIENT_SECRET: 'bench-secret', PLATFORM_GAME_ID: 'demo-game' }),
    setLatency: (ms) => new Promise((resolve) => {
      child.once('message', () => resolve());
      child.send(ms);
    }),
    stop: () => void child.kill(),
  };
}
