import { cacheChannel } from '../diagnostics/channels.js';
import type { CacheMessage } from '../diagnostics/channels.js';
import { LRUCache } from 'lru-cache';
import type { GameUser } from '../types.js';
import { MemoryVerificationStore } from './verification-store.js';
import { STORE_FAILED } from './store-guard.js';
import type { StoreGuard } from './store-guard.js';
import { scopedKey } from './tenant-scope.js';

type Kind = 'E2' | 'web';

/** What a store holds for a verified token: identifiers and an expiry time, nothing else. */
interface CachedEntry {
  memberNo: string;
  guid: string | null;
  /** Expiry on the client's clock (ms): an entry is trusted no longer than the client's TTL, whatever the store does. */
  expiresAt: number;
}

/** The one-letter fields earlier versions wrote, still read while their entries live in a shared store. */
interface LegacyEntry {
  m: string;
  g: string | null;
  x: number;
}

interface Recent {
  entry: CachedEntry;
  generation: number;
  seq: number;
}

/** Results stored lately, for lookups of a shared store that began before the store had them. */
const RECENT_MAX = 1000;

interface KeyState {
  generation: number;
  pending: number;
}

/** One verification's claim to store its result: void if the key was forgotten since it began. */
export interface Ticket {
  readonly key: string;
  readonly generation: number;
  readonly state: KeyState;
}

const DIGITS = /^[0-9]{1,40}$/;

function entryUser(value: unknown, now: number): GameUser | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Partial<CachedEntry> & Partial<LegacyEntry>;
  const memberNo = 'memberNo' in v ? v.memberNo : v.m;
  const guid = 'memberNo' in v ? v.guid : v.g;
  const expiresAt = 'memberNo' in v ? v.expiresAt : v.x;
  if (typeof memberNo !== 'string' || !DIGITS.test(memberNo)) return undefined;
  if (guid !== null && (typeof guid !== 'string' || !DIGITS.test(guid))) return undefined;
  if (typeof expiresAt !== 'number' || !(expiresAt > now)) return undefined;
  return { memberNo, guid };
}

/**
 * The opt-in cache of verified user tokens on a {@link VerificationStore}:
 * successes only, keyed by digest, each entry trusted at most `ttlMs` on the
 * client's clock. A forget wins over every verification that began before it
 * (each key has a generation; a verification stores its result only if the
 * generation it began with is still current). Every store key is under the
 * client's tenant scope: an entry another game or platform wrote is never
 * read as ours, whatever store they share.
 */
export class VerificationCache {
  readonly #keys = new Map<string, KeyState>();
  readonly #label: CacheMessage['store'];
  readonly #memory: MemoryVerificationStore | undefined;
  readonly #recent = new LRUCache<string, Recent>({ max: RECENT_MAX });
  #seq = 0;
  /** True when a store backs the cache; a plain field, read on every verification. */
  readonly enabled: boolean;

  private readonly guard: StoreGuard | undefined;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly scope: string;

  constructor(
    guard: StoreGuard | undefined,
    ttlMs: number,
    now: () => number,
    scope: string,
  ) {
    this.guard = guard;
    this.ttlMs = ttlMs;
    this.now = now;
    this.scope = scope;
    this.#label = guard?.store.shared === true ? 'shared' : 'memory';
    this.#memory = guard?.store instanceof MemoryVerificationStore ? guard.store : undefined;
    this.enabled = guard !== undefined;
  }

  /**
   * The cached user, or undefined (miss, expired, unreadable, or the store
   * failed). Answers at once (no promise) from the in-memory store, so
   * concurrent requests for one token still meet in one verification.
   */
  get(kind: Kind, key: string): GameUser | undefined | Promise<GameUser | undefined> {
    if (this.guard === undefined) return undefined;
    if (this.#memory !== undefined) return this.#answer(kind, entryUser(this.#memory.peek(scopedKey(this.scope, key)), this.now()));
    return this.#shared(kind, key, this.guard);
  }

  async #shared(kind: Kind, key: string, guard: StoreGuard): Promise<GameUser | undefined> {
    const began = this.#seq;
    const value = await guard.run((store) => store.get(scopedKey(this.scope, key)));
    let user = value === STORE_FAILED ? undefined : entryUser(value, this.now());
    if (user === undefined) {
      // A verification finished while the store was asked: its result counts, the flight it came from is gone.
      const recent = this.#recent.get(key);
      if (recent !== undefined && recent.seq > began && recent.generation === this.generation(key)) user = entryUser(recent.entry, this.now());
    }
    return this.#answer(kind, user);
  }

  #answer(kind: Kind, user: GameUser | undefined): GameUser | undefined {
    if (cacheChannel.hasSubscribers) cacheChannel.publish({ kind, hit: user !== undefined, store: this.#label } satisfies CacheMessage);
    return user;
  }

  /** The key's current generation: verifications of different generations never share a flight. */
  generation(key: string): number {
    return this.#keys.get(key)?.generation ?? 0;
  }

  /** Call when a verification of `key` starts; pair with {@link end}. */
  begin(key: string): Ticket {
    let state = this.#keys.get(key);
    if (state === undefined) {
      state = { generation: 0, pending: 0 };
      this.#keys.set(key, state);
    }
    state.pending += 1;
    return { key, generation: state.generation, state };
  }

  /**
   * Stores a verified user unless the key was forgotten since the ticket's
   * verification began. With a shared store, the promise settles once the
   * store has it (or gave up), so the player's next request finds it on any
   * instance; the in-memory store needs no wait.
   */
  store(ticket: Ticket, user: GameUser): Promise<unknown> | undefined {
    if (this.guard === undefined || ticket.state.generation !== ticket.generation) return undefined;
    const entry: CachedEntry = { memberNo: user.memberNo, guid: user.guid, expiresAt: this.now() + this.ttlMs };
    if (this.#memory === undefined) {
      this.#seq += 1;
      this.#recent.set(ticket.key, { entry, generation: ticket.generation, seq: this.#seq });
    }
    const stored = this.guard.run((store) => store.set(scopedKey(this.scope, ticket.key), entry, this.ttlMs));
    return this.#memory === undefined ? stored : undefined;
  }

  end(ticket: Ticket): void {
    ticket.state.pending -= 1;
    if (ticket.state.pending === 0 && this.#keys.get(ticket.key) === ticket.state) this.#keys.delete(ticket.key);
  }

  /** Drops the key now and voids every verification of it in flight. */
  forget(key: string): Promise<unknown> {
    const state = this.#keys.get(key);
    if (state !== undefined) state.generation += 1;
    this.#recent.delete(key);
    if (this.guard === undefined) return Promise.resolve();
    return this.guard.run((store) => store.delete(scopedKey(this.scope, key)));
  }
}
