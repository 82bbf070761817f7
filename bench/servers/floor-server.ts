// `floor`: what the job itself costs. An Express route reads the bearer token, sends one keep-alive
// POST to E2 through an undici Pool with the API token fetched once at startup, and answers; no body
// parsers, no retries, no budget, no single flight, no error shape. Nothing authenticates faster.
import express from 'express';
import { Pool } from 'undici';
import { requireEnv, serveHttp } from './server-kit.js';

const baseUrl = new URL(requireEnv('PLATFORM_BASE_URL'));
const gameId = requireEnv('PLATFORM_GAME_ID');
const pool = new Pool(baseUrl.origin, { connections: 64, keepAliveTimeout: 4000 });
const callerId = `${gameId}_SERVER`;
const verifyPath = `${baseUrl.pathname.replace(/\/+$/, '')}/member/v3.0/${gameId}/token/verify`;

async function issueApiToken(): Promise<string> {
  const res = await pool.request({
    method: 'POST',
    path: `${baseUrl.pathname.replace(/\/+$/, '')}/auth/v5/server_token`,
    headers: { 'content-type': 'application/json', 'caller-id': callerId },
    body: JSON.stringify({ client_id: requireEnv('PLATFORM_CLIENT_ID'), client_secret: requireEnv('PLATFORM_CLIENT_SECRET'), service_id: gameId }),
  });
  const data = (await res.body.json()) as { code: number; response_data: { access_token: string } };
  if (data.code !== 0) throw new Error(`E1 answered ${data.code}`);
  return data.response_data.access_token;
}

const authorization = `Bearer ${await issueApiToken()}`;
const app = express();
app.disable('x-powered-by');
app.get('/api/me', (req, res, next) => {
  const header = req.headers.authorization;
  if (header === undefined || !header.startsWith('Bearer ')) {
    res.status(401).end();
    return;
  }
  pool.request({
    method: 'POST',
    path: verifyPath,
    headers: { authorization, 'caller-id': callerId, 'content-type': 'application/json' },
    body: JSON.stringify({ access_token: header.slice(7) }),
  }).then((r) => r.body.json()).then((data) => {
    const reply = data as { code: number; value?: { member_no: number | string; guid?: number | string | null } };
    if (reply.code !== 0 || reply.value === undefined) {
      res.status(401).end();
      return;
    }
    res.set('Cache-Control', 'no-store').json({ member_no: String(reply.value.member_no), guid: reply.value.guid == null ? null : String(reply.value.guid) });
  }, next);
});

await serveHttp(app, undefined, () => void pool.close());
