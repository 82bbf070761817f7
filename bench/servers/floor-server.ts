// `floor`: what the job itself costs. An Express route reads the bearer token, sends one keep-alive
// POST to E2 through an undici Pool with the API token fetched once at startup, and answers; no body
// parsers, no retries, no budget, no single flight, no error shape. Nothing authenticates faster.
import express from 'express';
import { Pool } from 'undici';
import { floorRoute } from '../harness/floor-route.js';
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
app.get('/api/me', floorRoute(pool, authorization, verifyPath, callerId));

await serveHttp(app, undefined, () => void pool.close());
