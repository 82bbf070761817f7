import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { PlatformClient } from '../../lib/client/index.js';
import { DEFAULT_MEMBERS } from '../../lib/emulator/index.js';
import { fastifyGamePlatform, gamePlatformErrorHandler } from '../../lib/fastify/index.js';
import { recordingLogger } from '../support/http-apps.js';
import { useAdapterEmulator } from '../support/http-emulator-client.js';

const { fixture, clients } = useAdapterEmulator();

async function listen(app: FastifyInstance): Promise<(path: string, token?: string) => Promise<Response>> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return (path, token) => fetch(`http://127.0.0.1:${port}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
}

describe('fastifyGamePlatform', () => {
  it('names the option when registered with a wrong one', async () => {
    const app = Fastify();
    await expect(app.register(fastifyGamePlatform, { client: {} as PlatformClient })).rejects.toThrow(
      new TypeError('passport-game-platform/fastify: options.client must have a verifyUserToken(token) method (a PlatformClient)'),
    );
    await app.close();
  });

  it('gives mapUser and authorize the Fastify request, and answers 403 denied when authorize says no', async () => {
    const app = Fastify();
    const seen: string[] = [];
    await app.register(fastifyGamePlatform, {
      client: clients.create(),
      mapUser: (user, req: FastifyRequest) => {
        seen.push(req.routeOptions.url ?? '');
        return { admin: user.memberNo === DEFAULT_MEMBERS.admin };
      },
      authorize: (user, req: FastifyRequest) => !req.url.startsWith('/admin') || (user as { admin?: boolean }).admin === true,
    });
    app.get('/admin/me', { preHandler: app.requireGameUser }, async (request) => request.user);
    const get = await listen(app);
    try {
      const admin = await get('/admin/me', fixture.emulator.login(DEFAULT_MEMBERS.admin).access_token);
      expect(await admin.json()).toEqual({ memberNo: DEFAULT_MEMBERS.admin, guid: '200000000397', admin: true });
      const player = await get('/admin/me', fixture.emulator.login(DEFAULT_MEMBERS.player).access_token);
      expect(player.status).toBe(403);
      expect(player.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(await player.json()).toMatchObject({ status: 403, action: 'denied' });
      expect(seen).toEqual(['/admin/me', '/admin/me']);
    } finally {
      await app.close();
    }
  });

  it('logs a platform outage once a minute to its logger, and answers each request 503', async () => {
    const app = Fastify();
    const logger = recordingLogger();
    await app.register(fastifyGamePlatform, { client: clients.create(), logger });
    app.get('/api/me', { preHandler: app.requireGameUser }, async () => ({}));
    const get = await listen(app);
    try {
      const token = fixture.emulator.login(DEFAULT_MEMBERS.player).access_token;
      fixture.emulator.injectFault({ type: 'code', code: 50000, endpoint: 'E2', count: -1 });
      for (let i = 0; i < 3; i += 1) expect((await get('/api/me', token)).status).toBe(503);
      expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([
        { level: 'warn', obj: { kind: 'platform_unavailable', code: 50000, status: 503 }, msg: expect.stringContaining('50000') },
      ]);
    } finally {
      await app.close();
    }
  });

  it('renders a PlatformError a route throws with gamePlatformErrorHandler, and leaves other errors to Fastify', async () => {
    const app = Fastify();
    const client = clients.create();
    const logger = recordingLogger();
    app.setErrorHandler(gamePlatformErrorHandler({ logger }));
    app.get('/members/:memberNo', async (request) => client.lookupMember({ memberNo: (request.params as { memberNo: string }).memberNo }));
    app.get('/boom', async () => {
      throw new Error('not ours');
    });
    const get = await listen(app);
    try {
      fixture.emulator.injectFault({ type: 'drop', endpoint: 'E3', count: -1 });
      const down = await get(`/members/${DEFAULT_MEMBERS.player}`);
      expect(down.status).toBe(503);
      expect(down.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(down.headers.get('cache-control')).toBe('no-store');
      expect(await down.json()).toMatchObject({ status: 503, action: 'retry_later' });
      expect(logger.lines.map((l) => l.level)).toEqual(['warn']);
      const boom = await get('/boom');
      expect(boom.status).toBe(500);
      expect(boom.headers.get('content-type')).toMatch(/^application\/json/);
    } finally {
      await app.close();
    }
  });

  it('reads the web token cookie and refuses a cross-site POST authenticated by it', async () => {
    const app = Fastify();
    await app.register(fastifyGamePlatform, { client: clients.create(), tokenFrom: { cookie: 'SUAT' } });
    app.get('/event/me', { preHandler: app.requireGameUser }, async (request) => ({ member_no: request.user!.memberNo }));
    app.post('/event/vote', { preHandler: app.requireGameUser }, async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      const cookie = `SUAT=${fixture.emulator.issueWebToken(DEFAULT_MEMBERS.player)}`;
      const me = await fetch(`${base}/event/me`, { headers: { cookie } });
      expect(await me.json()).toEqual({ member_no: DEFAULT_MEMBERS.player });
      const sameSite = await fetch(`${base}/event/vote`, { method: 'POST', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
      expect(sameSite.status).toBe(200);
      const crossSite = await fetch(`${base}/event/vote`, { method: 'POST', headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
      expect(crossSite.status).toBe(403);
      expect(await crossSite.json()).toMatchObject({ status: 403, action: 'denied', type: expect.stringContaining('cross_site') });
    } finally {
      await app.close();
    }
  });

  it('compares a cookie write\'s origin with the scheme Fastify serves on (trustProxy: X-Forwarded-Proto)', async () => {
    const app = Fastify({ trustProxy: true });
    await app.register(fastifyGamePlatform, { client: clients.create(), tokenFrom: { cookie: 'SUAT' } });
    app.post('/event/vote', { preHandler: app.requireGameUser }, async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    try {
      const cookie = `SUAT=${fixture.emulator.issueWebToken(DEFAULT_MEMBERS.player)}`;
      const vote = (origin: string): Promise<Response> => fetch(`http://127.0.0.1:${port}/event/vote`, {
        method: 'POST', headers: { cookie, origin, 'x-forwarded-proto': 'https' },
      });
      expect((await vote(`https://127.0.0.1:${port}`)).status).toBe(200);
      expect((await vote(`http://127.0.0.1:${port}`)).status).toBe(403);
    } finally {
      await app.close();
    }
  });

  it('works as an onRequest hook, leaves request.user unset on open routes, needs no session', async () => {
    const app = Fastify();
    await app.register(fastifyGamePlatform, { client: clients.create() });
    app.get('/early', { onRequest: app.requireGameUser }, async (request) => ({ member_no: request.user?.memberNo }));
    app.get('/open', async (request) => ({ user: request.user ?? null }));
    const get = await listen(app);
    try {
      const early = await get('/early', fixture.emulator.login(DEFAULT_MEMBERS.player).access_token);
      expect(await early.json()).toEqual({ member_no: DEFAULT_MEMBERS.player });
      expect(await (await get('/open')).json()).toEqual({ user: null });
      expect((await get('/early')).status).toBe(401);
    } finally {
      await app.close();
    }
  });
});
