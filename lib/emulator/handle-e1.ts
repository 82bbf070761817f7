import { createHash, timingSafeEqual } from 'node:crypto';
import { PlatformCode } from '../errors/index.js';
import { parseJsonObject, readBody, sendJson, type Exchange } from './http-io.js';
import { sendCode } from './platform-reply.js';
import type { EmulatorContext } from './context.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * E1 `POST /auth/v5/server_token`. Missing or non-string fields: 40000. Unknown client_id, wrong
 * secret, or a client of the other environment: 40105. Right pair but a service_id other than the
 * client's: 41002. Else the held token (30 % or more of its lifetime left) or a new one.
 */
export async function handleE1(x: Exchange, ctx: EmulatorContext): Promise<void> {
  const style = ctx.options.errorStatus;
  const body = parseJsonObject(await readBody(x.req));
  if (!body) return sendCode(x, 'E1', style, PlatformCode.BAD_REQUEST);
  const { client_id: clientId, client_secret: secret, service_id: serviceId, instance_id: instance } = body;
  if (isText(clientId)) x.entry.clientId = clientId;
  if (isText(instance)) x.entry.instanceId = instance;
  const instanceOk = instance === undefined || instance === null || typeof instance === 'string';
  if (!isText(clientId) || !isText(secret) || !isText(serviceId) || !instanceOk) {
    return sendCode(x, 'E1', style, PlatformCode.BAD_REQUEST);
  }
  const client = ctx.client(clientId);
  const secretOk = sameSecret(secret, client?.client_secret ?? '');
  const envOk = client?.environment === undefined || client.environment === ctx.options.environment;
  if (!client || !secretOk || !envOk) return sendCode(x, 'E1', style, PlatformCode.CLIENT_MISMATCH);
  if (serviceId !== client.service_id) return sendCode(x, 'E1', style, PlatformCode.GAME_ID_MISMATCH);
  const { record, expiresIn } = ctx.apiTokens.issue(client, isText(instance) ? instance : null, ctx.clock.now());
  sendJson(x, 200, {
    code: PlatformCode.SUCCESS,
    message: 'success',
    response_data: { access_token: record.token, token_type: 'bearer', expires_in: expiresIn },
  });
}
