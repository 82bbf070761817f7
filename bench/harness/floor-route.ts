import type { RequestHandler } from 'express';
import { Pool } from 'undici';

/**
 * The floor's route on the stub platform (bench/harness/stub-platform.ts, game `demo-game`): its
 * own keep-alive pool, and the API token fetched once. Used by the in-process CPU bench and the
 * build comparison's server.
 */
export async function stubFloorRoute(stubUrl: string): Promise<RequestHandler> {
  const pool = new Pool(stubUrl, { connections: 64, keepAliveTimeout: 4000 });
  const res = await pool.request({ method: 'POST', path: '/auth/v5/server_token', headers: { 'content-type': 'application/json' }, body: '{}' });
  const apiToken = ((await res.body.json()) as { response_data: { access_token: string } }).response_data.access_token;
  return floorRoute(pool, `Bearer ${apiToken}`, '/member/v3.0/demo-game/token/verify', 'demo-game_SERVER');
}

/**
 * The floor's route, shared by its server process and the in-process CPU bench: it reads the
 * bearer token, sends one keep-alive POST to E2 with the API token it is given, and answers the
 * member. No body parser, no retry, no budget, no single flight, no error shape.
 */
export function floorRoute(pool: Pool, authorization: string, verifyPath: string, callerId: string): RequestHandler {
  return (req, res, next) => {
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
  };
}
