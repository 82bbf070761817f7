import { protectDashTokens } from '../../lib/cli/args.js';
import { PLATFORM_FLAGS } from '../../lib/cli/platform-settings.js';

describe('protectDashTokens', () => {
  const token = `-${'b'.repeat(40)}`;

  it('moves a long dash-led argument after "--", leaving flags in place', () => {
    expect(protectDashTokens(['--json', token, '--game-id', 'g'], PLATFORM_FLAGS)).toEqual(['--json', '--game-id', 'g', '--', token]);
  });

  it('keeps long known flags, short unknown flags and what already follows "--"', () => {
    const argv = ['--base-url=http://127.0.0.1:4010/some/long/path', '--jsn', '--', '-x'];
    expect(protectDashTokens(argv, PLATFORM_FLAGS)).toEqual(argv);
  });
});
