import { DEFAULT_SEED } from '../../lib/emulator/index.js';
import type { EmulatorSeed, SeedMember } from '../../lib/emulator/index.js';

/** The game every bench server authenticates for (a client of {@link DEFAULT_SEED}). */
export const BENCH_PLATFORM = Object.freeze({
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  gameId: 'demo-game',
});

const FIRST_MEMBER_NO = 30_000_000_000;
const FIRST_GUID = 300_000_000_000;

/** member_no of the bench's i-th member (0-based). */
export function benchMemberNo(index: number): string {
  return String(FIRST_MEMBER_NO + index);
}

/** {@link DEFAULT_SEED} plus `count` players of `demo-game`, all with a registered device. */
export function benchSeed(count: number): EmulatorSeed {
  const members: SeedMember[] = [];
  for (let i = 0; i < count; i += 1) {
    members.push({ member_no: benchMemberNo(i), guids: { [BENCH_PLATFORM.gameId]: String(FIRST_GUID + i) }, device_registered: true });
  }
  return { clients: [...DEFAULT_SEED.clients], members: [...DEFAULT_SEED.members, ...members] };
}
