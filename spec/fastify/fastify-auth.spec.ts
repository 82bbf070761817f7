import fastifyAuth from '@fastify/auth';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MEMBERS } from '../../lib/emulator/index.js';
import { fastifyGamePlatform, gamePlatformErrorHandler } from '../../lib/fastify/index.js';
import { recordingLogger } from '../support/recording-logger.js';
import { useAdapterEmulator } from '../support/http-emulator-client.js';

const { fixture, clients } = useAdapterEmulator();

// A second way in that a game backend typically has: its own servers' key.
async function serverKey(request: FastifyRequest): Promise<void> {
  if (request.headers['x-server-key'] !== 'k3y') throw new Error('not a game server');
}

describe('verifyGameUser under @fastify/auth', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    await app.register(fastifyGamePlatform, { client: clients.create(), logger: recordingLogger() });
    await app.register(fastifyAuth);
    app.setErrorHandler(gamePlatformErrorHandler({ logger: recordingLogger() }));
    app.get('/scores', { preHandler: app.auth([app.verifyGameUser, serverKey]) }, async (request) => ({
      member_no: request.user?.memberNo ?? null,
    }));
    app.get('/scores-key-first', { preHandler: app.auth([serverKey, app.verifyGameUser]) }, async (request) => ({
      member_no: request.user?.memberNo ?? null,
    }));
    app.get('/boom', { preHandler: app.auth([app.verifyGameUser, serverKey]) }, async () => {
      throw Object.assign(new Error('route fault'), { statusCode: 409 });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const get = (path: string, headers: Record<string, string>) => fetch(base + path, { headers });

  it('lets a valid player token through with request.user set', async () => {
    const token = fixture.emulator.login(DEFAULT_MEMBERS.player).access_token;
    const res = await get('/scores', { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ member_no: DEFAULT_MEMBERS.player });
  });

  it('falls through to the next verifier when the player token is refused', async () => {
    const res = await get('/scores', { authorization: 'Bearer not-a-live-token-0123456789', 'x-server-key': 'k3y' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ member_no: null });
    const none = await get('/scores', { 'x-server-key': 'k3y' });
    expect(none.status).toBe(200);
  });

  it.each(['/scores', '/scores-key-first'])('answers our 401 problem when every verifier refuses (%s)', async (path) => {
    const res = await get(path, { authorization: 'Bearer not-a-live-token-0123456789' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="game-platform", error="invalid_token"/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ status: 401, action: 'relogin', code: 40000 });
    const none = await get(path, {});
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ status: 401, action: 'login' });
  });

  it('leaves a route fault after an accepted verifier to the app', async () => {
    const res = await get('/boom', { authorization: 'Bearer not-a-live-token-0123456789', 'x-server-key': 'k3y' });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
