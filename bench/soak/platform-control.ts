import type { FaultSpec } from '../../lib/emulator/index.js';

/** The standalone emulator's test-control API (`/_emulator/...`), over HTTP. */
export class PlatformControl {
  readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  async #post(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}/_emulator/${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`emulator ${path}: HTTP ${res.status}`);
    return res.json();
  }

  /** A fresh user token of `memberNo` (a new, distinct token each time). */
  async login(memberNo: string, gameId: string): Promise<string> {
    const pair = (await this.#post('login', { member_no: memberNo, game_id: gameId })) as { access_token: string };
    return pair.access_token;
  }

  async injectFaults(faults: FaultSpec[]): Promise<void> {
    if (faults.length > 0) await this.#post('faults', { faults });
  }
}
