import type express from 'express';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import request from 'supertest';
import { PlatformError, errorForPlatformCode, errorForTransportFault, invalidRequest } from '../../lib/errors/index.js';
import { platformErrorHandler, type PlatformErrorHandlerOptions } from '../../lib/middleware/index.js';
import { EXPRESS_VERSIONS, recordingLogger } from '../support/http-apps.js';

function appThrowing(expressFn: typeof express, err: unknown, options: PlatformErrorHandlerOptions = {}, before?: RequestHandler) {
  const app = expressFn();
  app.get('/x', before ?? ((_req, _res, next) => next(err)));
  app.use(platformErrorHandler(options));
  return app;
}

describe.each(EXPRESS_VERSIONS)('platformErrorHandler on %s', (_version, expressFn) => {
  it('renders an unknown error as a generic 500 problem, logged, with no message or stack', async () => {
    const logger = recordingLogger();
    const res = await request(appThrowing(expressFn, new Error('db password hunter2'), { logger })).get('/x');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toEqual({ type: 'urn:passport-game-platform:problem:internal_error', title: 'Internal server error', status: 500, action: 'none', detail: 'The server failed to handle the request.' });
    expect(res.text).not.toMatch(/hunter2|at /);
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'error', obj: expect.objectContaining({ errorMessage: 'db password hunter2' }) })]);
  });

  it('renders a thrown non-Error as a 500', async () => {
    const res = await request(appThrowing(expressFn, 'a string', { logger: recordingLogger() })).get('/x');
    expect(res.status).toBe(500);
  });

  it('gives 5xx a generic detail unless exposeDetail, and logs configuration faults as errors', async () => {
    const error = errorForPlatformCode(40105, 'E1');
    const logger = recordingLogger();
    const hidden = await request(appThrowing(expressFn, error, { logger })).get('/x');
    expect(hidden.body.detail).not.toContain('PLATFORM_CLIENT_SECRET');
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'error', msg: error.message })]);
    const shown = await request(appThrowing(expressFn, error, { exposeDetail: true, logger })).get('/x');
    expect(shown.body.detail).toBe(error.message);
  });

  it('logs a platform outage as a warning and sets Retry-After', async () => {
    const logger = recordingLogger();
    const res = await request(appThrowing(expressFn, errorForTransportFault('timeout', 'E2'), { logger })).get('/x');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^[3-7]$/);
    expect(logger.lines.map((l) => l.level)).toEqual(['warn']);
  });

  it('logs a fault that fails every request once, not once per request', async () => {
    const logger = recordingLogger();
    const app = appThrowing(expressFn, errorForTransportFault('network', 'E2'), { logger });
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await request(app).get('/x')).status);
    expect(statuses).toEqual([503, 503, 503, 503, 503]);
    expect(logger.lines).toHaveLength(1);
  });

  it('refuses a logger without warn() at start-up, naming the option', () => {
    const logger = { error: () => {} } as unknown as PlatformErrorHandlerOptions['logger'];
    expect(() => platformErrorHandler({ logger })).toThrow('platformErrorHandler: options.logger must have error() and warn() methods');
  });

  it('uses the configured realm, escaped', async () => {
    const res = await request(appThrowing(expressFn, invalidRequest('x'), { realm: 'my "game"\r\nX-Evil: 1' })).get('/x');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="my gameX-Evil: 1", error="invalid_request", error_description="x"');
    expect(res.headers['x-evil']).toBeUndefined();
  });

  it('renders passport\'s AuthenticationError without a recorded failure by its status', async () => {
    const authError = Object.assign(new Error('Unauthorized'), { name: 'AuthenticationError', status: 401 });
    const res = await request(appThrowing(expressFn, authError)).get('/x');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ action: 'login' });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="game-platform"');
  });

  it('renders other exposed 4xx errors with their status and no message', async () => {
    const err = Object.assign(new Error('unsupported charset "X-SECRET"'), { status: 415, expose: true, type: 'charset.unsupported' });
    const res = await request(appThrowing(expressFn, err)).get('/x');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ type: 'about:blank', title: 'Unsupported Media Type', status: 415, action: 'none', detail: 'Unsupported Media Type.' });
  });

  it('delegates to the next handler when headers were already sent', async () => {
    const app = expressFn();
    let delegated: unknown;
    app.get('/x', (_req, res, next) => {
      res.write('partial');
      next(new PlatformError({ kind: 'platform_unavailable', message: 'late' }));
    });
    app.use(platformErrorHandler());
    const last: ErrorRequestHandler = (err, _req, res, _next) => {
      delegated = err;
      res.end();
    };
    app.use(last);
    const res = await request(app).get('/x');
    expect(res.status).toBe(200);
    expect(delegated).toMatchObject({ message: 'late' });
  });

  it.each<[string, PlatformErrorHandlerOptions, string]>([
    ['an empty realm', { realm: '' }, 'platformErrorHandler: options.realm must be a non-empty string'],
    ['a logger without error()', { logger: {} as never }, 'platformErrorHandler: options.logger must have error() and warn() methods'],
  ])('rejects %s at construction', (_name, options, message) => {
    expect(() => platformErrorHandler(options)).toThrow(new TypeError(message));
  });
});
