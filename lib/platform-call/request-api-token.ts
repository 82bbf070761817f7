import type { ResolvedPlatformConfig } from '../config/index.js';
import { errorForPlatformCode, errorForTransportFault, PlatformCode } from '../errors/index.js';
import { readObject } from './platform-body.js';
import type { PlatformHttp } from './platform-http.js';
import { isLosslessNumber } from 'lossless-json';

export const E1_PATH = '/auth/v5/server_token';

export interface IssuedToken {
  token: string;
  /** `response_data.expires_in` in ms, when present and readable. */
  expiresInMs: number | undefined;
}

function readExpiresIn(value: unknown): number | undefined {
  const text = isLosslessNumber(value) ? value.value : typeof value === 'number' || typeof value === 'string' ? String(value) : '';
  if (!/^\d{1,10}$/.test(text) || Number(text) === 0) return undefined;
  return Number(text) * 1000;
}

/** One E1 call: `POST /auth/v5/server_token` with the server credentials in the JSON body. */
export async function requestApiToken(http: PlatformHttp, config: ResolvedPlatformConfig): Promise<IssuedToken> {
  const body: Record<string, string> = {
    client_id: config.clientId,
    client_secret: config.clientSecret,
    service_id: config.gameId,
  };
  if (config.instanceId !== undefined) body.instance_id = config.instanceId;
  const reply = await http.request({
    endpoint: 'E1',
    method: 'POST',
    path: E1_PATH,
    headers: { 'Content-Type': 'application/json', 'caller-id': config.callerId },
    body,
  });
  if (reply.code !== PlatformCode.SUCCESS) throw errorForPlatformCode(reply.code, 'E1');
  const data = readObject(reply.fields, 'response_data');
  const token = data?.access_token;
  // The token goes into an Authorization header: visible ASCII only.
  if (typeof token !== 'string' || !/^[\x21-\x7e]{1,8192}$/.test(token)) {
    throw errorForTransportFault('bad_body', 'E1', 'no usable response_data.access_token');
  }
  return { token, expiresInMs: readExpiresIn(data?.expires_in) };
}

