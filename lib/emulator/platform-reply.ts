import { LosslessNumber } from 'lossless-json';
import { PlatformCode } from '../errors/index.js';
import { sendJson, type Exchange } from './http-io.js';
import type { ErrorStatusStyle } from './types.js';

/** A platform endpoint that answers with `{code, message}` bodies. */
export type PlatformRoute = 'E1' | 'E2' | 'E3' | 'web';

const MESSAGES: Record<number, string> = {
  [PlatformCode.SUCCESS]: 'success',
  [PlatformCode.BAD_REQUEST]: 'bad request',
  [PlatformCode.INVALID_API_TOKEN]: 'invalid access token',
  [PlatformCode.EXPIRED_API_TOKEN]: 'expired access token',
  [PlatformCode.CLIENT_MISMATCH]: 'client_id and client_secret do not match',
  [PlatformCode.GAME_ID_MISMATCH]: 'invalid game id',
  [PlatformCode.DEVICE_NOT_REGISTERED]: 'device not registered',
  [PlatformCode.UNKNOWN_ERROR]: 'unknown error',
};

/** The emulator's `message` for a code. */
export function messageFor(code: number): string {
  return MESSAGES[code] ?? 'error';
}

const HTTP_STYLE: Record<number, number> = {
  [PlatformCode.BAD_REQUEST]: 400,
  [PlatformCode.INVALID_API_TOKEN]: 401,
  [PlatformCode.EXPIRED_API_TOKEN]: 401,
  [PlatformCode.CLIENT_MISMATCH]: 401,
  [PlatformCode.GAME_ID_MISMATCH]: 403,
  [PlatformCode.DEVICE_NOT_REGISTERED]: 403,
  [PlatformCode.UNKNOWN_ERROR]: 500,
};

/** HTTP status of an answer with `code` on `route`, in the given style. */
export function statusFor(code: number, route: PlatformRoute, style: ErrorStatusStyle): number {
  if (code === PlatformCode.SUCCESS || style === 'ok') return 200;
  if (style === 'http') return HTTP_STYLE[code] ?? (code >= 50000 ? 500 : 400);
  if (route === 'E1') return 200;
  return code === PlatformCode.INVALID_API_TOKEN || code === PlatformCode.EXPIRED_API_TOKEN ? 401 : 200;
}

/** Answers `{code, message}` with the status of the emulator's style (or `status` when given). */
export function sendCode(x: Exchange, route: PlatformRoute, style: ErrorStatusStyle, code: number, status?: number, message?: string): void {
  sendJson(x, status ?? statusFor(code, route, style), { code, message: message ?? messageFor(code) });
}

/** Writes an identifier as an exact JSON number or as a JSON string. */
export function encodeId(digits: string, mode: 'number' | 'string'): LosslessNumber | string {
  return mode === 'number' ? new LosslessNumber(digits) : digits;
}

/** Answers `{code:0, message:"success", value:{member_no, guid?}}` (guid omitted when null). */
export function sendMember(x: Exchange, mode: 'number' | 'string', memberNo: string, guid: string | null): void {
  const value: Record<string, unknown> = { member_no: encodeId(memberNo, mode) };
  if (guid !== null) value.guid = encodeId(guid, mode);
  sendJson(x, 200, { code: PlatformCode.SUCCESS, message: messageFor(PlatformCode.SUCCESS), value });
}
