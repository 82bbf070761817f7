import { request as httpRequest, type Agent, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { DEMO } from './demo.js';

export { DEMO };

/** An HTTP answer: status, headers, raw text, and the JSON body when the text is JSON. */
export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** fetch() that never follows redirects and reads the whole body as text. */
export async function call(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const res = await fetch(url, { redirect: 'manual', ...init });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** POST a JSON body (an object, or a raw string sent as is). */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  return call(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** E1 with the demo Live client unless overridden. */
export function issue(base: string, body: Record<string, unknown> = {}): Promise<HttpResult> {
  return postJson(`${base}/auth/v5/server_token`, {
    client_id: DEMO.clientId, client_secret: DEMO.clientSecret, service_id: DEMO.gameId, ...body,
  }, { 'caller-id': `${DEMO.gameId}_SERVER` });
}

/** E1, asserting success; returns the API token. */
export async function apiToken(base: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await issue(base, body);
  expect(res.json).toMatchObject({ code: 0 });
  return res.json.response_data.access_token as string;
}

/** E2 for a user token (or a raw body string). */
export function verify(base: string, token: string, userToken: unknown, gameId: string = DEMO.gameId): Promise<HttpResult> {
  const body = typeof userToken === 'string' && userToken.startsWith('RAW:') ? userToken.slice(4) : { access_token: userToken };
  return postJson(`${base}/member/v3.0/${gameId}/token/verify`, body, { authorization: `Bearer ${token}`, 'caller-id': `${gameId}_SERVER` });
}

/** E3 with a raw query string. */
export function lookup(base: string, token: string | null, query: string, gameId: string = DEMO.gameId): Promise<HttpResult> {
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  return call(`${base}/member/v3.0/${gameId}?${query}`, { headers });
}

/** A raw node:http request (keep-alive agents, `reusedSocket`, socket errors). */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent; timeoutMs?: number } = {}):
Promise<{ status: number; headers: IncomingHttpHeaders; text: string; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), reusedSocket: req.reusedSocket }));
      res.on('error', done);
    });
    const done = (err: Error & { reusedSocket?: boolean }): void => {
      err.reusedSocket = req.reusedSocket;
      reject(err);
    };
    req.on('error', done);
    if (options.timeoutMs !== undefined) req.setTimeout(options.timeoutMs, () => req.destroy(Object.assign(new Error('client timeout'), { code: 'ETIMEDOUT' })));
    req.end(options.body);
  });
}
