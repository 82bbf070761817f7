import axios from 'axios';
import { requireEnv } from './server-kit.js';

/**
 * The platform calls of the hand-written baseline, as a typical team writes them: plain axios,
 * a module-level API token, E2 per request.
 */
const baseUrl = requireEnv('PLATFORM_BASE_URL');
const clientId = requireEnv('PLATFORM_CLIENT_ID');
const clientSecret = requireEnv('PLATFORM_CLIENT_SECRET');
const gameId = requireEnv('PLATFORM_GAME_ID');
const headers = { 'caller-id': `${gameId}_SERVER` };

let apiToken: string | undefined;

async function fetchApiToken(): Promise<string> {
  const res = await axios.post(`${baseUrl}/auth/v5/server_token`, {
    client_id: clientId,
    client_secret: clientSecret,
    service_id: gameId,
  }, { headers });
  if (res.data.code !== 0) throw new Error(`E1 failed with code ${res.data.code}`);
  return res.data.response_data.access_token as string;
}

/** Fetches the API token once, before the server listens. */
export async function fetchApiTokenAtStartup(): Promise<void> {
  apiToken = await fetchApiToken();
}

/** The cached API token, fetched when not cached yet (no single-flight, like typical code). */
export async function getApiToken(): Promise<string> {
  if (!apiToken) apiToken = await fetchApiToken();
  return apiToken;
}

export interface BaselineUser {
  memberNo: string;
  guid: string | null;
}

/** E2: the member of a user token, or null when the platform refuses it. */
export async function verifyUserToken(token: string): Promise<BaselineUser | null> {
  const res = await axios.post(`${baseUrl}/member/v3.0/${gameId}/token/verify`, { access_token: token }, {
    headers: { ...headers, Authorization: `Bearer ${await getApiToken()}` },
  });
  if (res.data.code !== 0) return null;
  const { member_no: memberNo, guid } = res.data.value;
  return { memberNo: String(memberNo), guid: guid === undefined ? null : String(guid) };
}
