import type { ResolvedPlatformConfig } from '../config/index.js';
import { isPlatformError, PlatformError } from '../errors/index.js';
import type { ApiCall, ApiRequest } from '../platform-call/api-call.js';
import type { CallContext } from '../platform-call/platform-http.js';
import { memberFromReply } from '../platform-call/platform-body.js';
import type { GameUser } from '../types.js';
import { searchParams } from './client-input.js';
import type { MemberQuery } from './client-input.js';

/** E3's request for one member, by member_no or guid. */
export function memberRequest(path: string, query: MemberQuery): ApiRequest {
  return { endpoint: 'E3', method: 'GET', path, query: searchParams(query) };
}

/**
 * Member lookups (E3): by member_no or guid for the application, and the
 * completion of a verification the platform answered with a guid alone, so
 * that a verified user always has its member_no.
 */
export class MemberLookup {
  readonly #api: ApiCall;
  readonly #gameId: string;

  constructor(config: ResolvedPlatformConfig, api: ApiCall) {
    this.#api = api;
    this.#gameId = config.gameId;
  }

  /** The member, or `null` when the platform finds none. */
  find(query: MemberQuery, context: CallContext): Promise<GameUser | null> {
    return this.#api.callWithApiToken(memberRequest(this.#api.memberPath, query), memberFromReply, undefined, context);
  }

  /** A guid-based answer without member_no: E3 gives the member_no, within the verification's budget. */
  async complete(guid: string, context: CallContext): Promise<GameUser> {
    const found = await this.find({ guid }, context).catch((error: unknown) => {
      // The player's token was fine: E3 refusing our own lookup is a server-side fault, not a 400.
      if (isPlatformError(error) && error.kind === 'invalid_request') {
        throw new PlatformError({ kind: 'configuration', code: error.code, message: `E3 refused our lookup of guid ${guid} (${error.code ?? 'no code'}) while completing a verified user.` });
      }
      throw error;
    });
    if (found === null) {
      throw new PlatformError({
        kind: 'configuration',
        message: `The platform verified a token for guid ${guid} but E3 finds no member with that guid for game ${this.#gameId}.`,
      });
    }
    return { memberNo: found.memberNo, guid };
  }
}
