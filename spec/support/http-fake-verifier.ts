import { errorForPlatformCode, errorForTransportFault } from '../../lib/errors/index.js';
import type { GameUser } from '../../lib/types.js';

/** The player every fake token `ok...` belongs to (digits above 2^53). */
export const FAKE_USER: GameUser = { memberNo: '90071992547409931', guid: '200000000397' };

/**
 * A stand-in for PlatformClient: `ok*` verifies, `code<N>` answers platform
 * code N (as the client would after its retries), `down` a timeout,
 * `throw` a foreign error. Records every token it was asked about.
 */
export function fakeVerifier() {
  const calls: { method: 'user' | 'web'; token: string }[] = [];
  const answer = async (method: 'user' | 'web', token: string): Promise<GameUser> => {
    calls.push({ method, token });
    if (token.startsWith('ok')) return method === 'web' ? { ...FAKE_USER, guid: null } : FAKE_USER;
    const code = /^code(\d+)$/.exec(token)?.[1];
    if (code !== undefined) throw errorForPlatformCode(Number(code), method === 'web' ? 'web' : 'E2');
    if (token === 'down') throw errorForTransportFault('timeout', 'E2');
    throw new Error(`socket hang up near ${token}`);
  };
  return {
    calls,
    verifyUserToken: (token: string) => answer('user', token),
    verifyWebToken: (token: string) => answer('web', token),
  };
}
