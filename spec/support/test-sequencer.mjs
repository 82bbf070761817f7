// Jest's order for a run with no timings from an earlier one (a clean clone, CI): the files known
// to take several seconds first, longest first, then Jest's own order (larger files first). A
// slow file that starts last keeps one worker busy while the other idles: on 2 cores that was
// the last 10 s of `npm test`. With timings, Jest already runs the longest first.
import Sequencer from '@jest/test-sequencer';

/** Several seconds each (spawned servers and programs, type-checked snippets, floods), longest first. */
const SLOW = [
  'spec/redis/sentinel.spec.ts',
  'spec/redis/cluster.spec.ts',
  'spec/package/doc-programs.spec.ts',
  'spec/package/doc-examples.spec.ts',
  'spec/acceptance/graceful-shutdown.spec.ts',
  'spec/acceptance/scale-out.spec.ts',
  'spec/acceptance/npm-start.spec.ts',
  'spec/socket-io/abandoned-handshakes.spec.ts',
  'spec/redis/fail-closed.spec.ts',
  'spec/redis/failover-resend.spec.ts',
  'spec/ws/ws-bounds.spec.ts',
  'spec/adapters/express-augment.spec.ts',
  'spec/package/runtime-check.spec.ts',
  'spec/ws/ws.spec.ts',
  'spec/reliability/hung-up-flood.spec.ts',
  'spec/reliability/concurrency.spec.ts',
  'spec/colyseus/colyseus.spec.ts',
  'spec/realtime/ended-during-handshake.spec.ts',
  'spec/realtime/reconnect-storm.spec.ts',
  'spec/reliability/secret-canaries.spec.ts',
  'spec/socket-io/typed-player.spec.ts',
  'spec/package/commonjs-require.spec.ts',
];

export default class SlowFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration != null)) return sorted;
    const rank = (test) => {
      const at = SLOW.findIndex((file) => test.path.endsWith(file));
      return at === -1 ? SLOW.length : at;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
