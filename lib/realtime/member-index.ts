import type { LiveConnection, TokenGroup } from './live-connection.js';

/**
 * The live token groups of each member. A member nearly always holds one
 * token, so the entry is that group itself; a Set only from the second token.
 * The groups already hold the connections: nothing here is per connection.
 */
export class MemberIndex {
  readonly #groups = new Map<string, TokenGroup | Set<TokenGroup>>();

  add(group: TokenGroup): void {
    const entry = this.#groups.get(group.memberNo);
    if (entry === undefined) this.#groups.set(group.memberNo, group);
    else if (entry instanceof Set) entry.add(group);
    else if (entry !== group) this.#groups.set(group.memberNo, new Set([entry, group]));
  }

  delete(group: TokenGroup): void {
    const entry = this.#groups.get(group.memberNo);
    if (entry === group) {
      this.#groups.delete(group.memberNo);
    } else if (entry instanceof Set && entry.delete(group) && entry.size === 1) {
      this.#groups.set(group.memberNo, entry.values().next().value!);
    }
  }

  /** The member's live connections. */
  connections(memberNo: string): LiveConnection[] {
    const entry = this.#groups.get(memberNo);
    if (entry === undefined) return [];
    if (entry instanceof Set) return [...entry].flatMap((group) => [...group.connections]);
    return [...entry.connections];
  }
}
