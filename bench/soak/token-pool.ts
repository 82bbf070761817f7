import { randomBytes } from 'node:crypto';
import type { PlatformControl } from './platform-control.js';

// DEFAULT_SEED members with a registered device (the one without answers 403).
const MEMBERS = ['20005061986', '20005061987', '20005061988', '9007199254740993'];

/** A growing set of distinct user tokens minted on the emulator, and garbage ones. */
export class TokenPool {
  readonly #tokens: string[] = [];
  #minted = 0;

  private readonly control: PlatformControl;
  private readonly gameId: string;

  constructor(control: PlatformControl, gameId: string) {
    this.control = control;
    this.gameId = gameId;
  }

  get size(): number {
    return this.#tokens.length;
  }

  async mint(count: number): Promise<void> {
    const batch = await Promise.all(Array.from({ length: count }, () => {
      this.#minted += 1;
      return this.control.login(MEMBERS[this.#minted % MEMBERS.length]!, this.gameId);
    }));
    this.#tokens.push(...batch);
  }

  /** A random known token, or (with probability `invalidRate`) one the platform never issued. */
  pick(invalidRate: number): { token: string; valid: boolean } {
    if (Math.random() < invalidRate || this.#tokens.length === 0) return { token: randomBytes(48).toString('base64url'), valid: false };
    return { token: this.#tokens[Math.floor(Math.random() * this.#tokens.length)]!, valid: true };
  }
}
