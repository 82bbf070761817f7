import { EmulatorInputError } from './errors.js';
import { newUserToken, newWebToken } from './token-format.js';
import type { TokenPair } from './types.js';

/** User Access Token lifetime: 6 hours. */
export const USER_TOKEN_LIFETIME_MS = 21_600_000;
/** Refresh Token lifetime: 720 hours. */
export const REFRESH_TOKEN_LIFETIME_MS = 720 * 3_600_000;
/** Web (cookie) token lifetime: 6 hours, like a user token (the spec does not say). */
export const WEB_TOKEN_LIFETIME_MS = USER_TOKEN_LIFETIME_MS;

/** One login of a member to a game. */
export interface UserSession {
  readonly memberNo: string;
  readonly gameId: string;
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly accessExpiresAt: number;
  readonly refreshExpiresAt: number;
}

interface WebSession {
  readonly memberNo: string;
  readonly expiresAt: number;
}

const PRUNE_EVERY = 1000;

/** User access/refresh tokens and web tokens; lifetimes are judged on the emulator clock. */
export class UserTokenStore {
  private readonly byAccess = new Map<string, UserSession>();
  private readonly byRefresh = new Map<string, UserSession>();
  private readonly web = new Map<string, WebSession>();
  private created = 0;

  login(memberNo: string, gameId: string, now: number): TokenPair {
    if (++this.created % PRUNE_EVERY === 0) this.prune(now);
    const session: UserSession = Object.freeze({
      memberNo,
      gameId,
      accessToken: newUserToken(),
      refreshToken: newUserToken(),
      accessExpiresAt: now + USER_TOKEN_LIFETIME_MS,
      refreshExpiresAt: now + REFRESH_TOKEN_LIFETIME_MS,
    });
    this.byAccess.set(session.accessToken, session);
    this.byRefresh.set(session.refreshToken, session);
    return { access_token: session.accessToken, refresh_token: session.refreshToken, expires_in: USER_TOKEN_LIFETIME_MS / 1000 };
  }

  /** Consumes the refresh token; the session's access token stops verifying. */
  refresh(refreshToken: string, now: number): TokenPair {
    const session = this.byRefresh.get(refreshToken);
    if (!session || now >= session.refreshExpiresAt) {
      throw new EmulatorInputError('refresh_token is unknown, already used, logged out or expired');
    }
    this.end(session);
    return this.login(session.memberNo, session.gameId, now);
  }

  logout(accessToken: string): void {
    const session = this.byAccess.get(accessToken);
    if (!session) throw new EmulatorInputError('access_token is not a current user token (unknown, refreshed or logged out)');
    this.end(session);
  }

  /** The live session of an access token, or null (unknown, replaced, logged out or expired). */
  verify(accessToken: string, now: number): UserSession | null {
    const session = this.byAccess.get(accessToken);
    return session && now < session.accessExpiresAt ? session : null;
  }

  issueWeb(memberNo: string, now: number): string {
    const token = newWebToken(now, WEB_TOKEN_LIFETIME_MS);
    this.web.set(token, { memberNo, expiresAt: now + WEB_TOKEN_LIFETIME_MS });
    return token;
  }

  verifyWeb(token: string, now: number): string | null {
    const session = this.web.get(token);
    return session && now < session.expiresAt ? session.memberNo : null;
  }

  revokeWeb(token: string): boolean {
    return this.web.delete(token);
  }

  private end(session: UserSession): void {
    this.byAccess.delete(session.accessToken);
    this.byRefresh.delete(session.refreshToken);
  }

  private prune(now: number): void {
    for (const s of this.byRefresh.values()) if (now >= s.refreshExpiresAt) this.end(s);
    for (const [t, w] of this.web) if (now >= w.expiresAt) this.web.delete(t);
  }
}
