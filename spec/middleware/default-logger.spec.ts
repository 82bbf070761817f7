import express from 'express';
import request from 'supertest';
import { PlatformClient, platformErrorHandler, requireGameUser, silentLogger } from '../../lib/index.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

// What the configuration guide promises about logging when no `logger` is
// given: the platform client stays silent (its faults reach the app as
// errors), while the request adapters report server-side faults (platform
// down, a hook that threw) on stderr, because a 503 nobody hears of is an
// outage nobody fixes. `silentLogger` turns that off.
describe('the default logger', () => {
  const METHODS = ['error', 'log', 'warn', 'info', 'debug'] as const;
  const saved = METHODS.map((method) => console[method]);
  let lines: unknown[][];
  beforeEach(() => {
    lines = [];
    for (const method of METHODS) console[method] = (...args: unknown[]) => { lines.push(args); };
  });
  afterEach(() => {
    METHODS.forEach((method, i) => { console[method] = saved[i]!; });
  });

  function app(logger?: typeof silentLogger) {
    const a = express();
    const withLogger = logger === undefined ? {} : { logger };
    a.get('/me', requireGameUser({ client: fakeVerifier(), ...withLogger }), (req, res) => { res.json(req.user); });
    a.use(platformErrorHandler(withLogger));
    return a;
  }

  it('of the middleware writes one prefixed line to stderr for a platform fault, and none for a refused token', async () => {
    const down = await request(app()).get('/me').set('authorization', 'Bearer down');
    expect(down.status).toBe(503);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[0]).toBe('[passport-game-platform]');
    lines = [];
    const refused = await request(app()).get('/me').set('authorization', 'Bearer code40000');
    expect(refused.status).toBe(401);
    expect(lines).toEqual([]);
  });

  it('of the middleware is silenced by logger: silentLogger', async () => {
    expect((await request(app(silentLogger)).get('/me').set('authorization', 'Bearer down')).status).toBe(503);
    expect(lines).toEqual([]);
  });

  it('of the platform client writes nothing, even when the platform cannot be reached', async () => {
    const client = new PlatformClient({ baseUrl: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's', gameId: 'G', retries: 0, timeoutMs: 1000 });
    try {
      await expect(client.verifyUserToken('abc')).rejects.toMatchObject({ status: 503 });
    } finally {
      await client.close();
    }
    expect(lines).toEqual([]);
  });
});
