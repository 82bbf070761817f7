import { loadFleetSettings } from '../../example-app/fleet-config.js';

describe('the example app\'s default Redis prefix', () => {
  it('names the environment and the game, so Live and Sandbox of one game differ', () => {
    const live = loadFleetSettings({}, 'demo-game', 'live').redisPrefix;
    const sandbox = loadFleetSettings({}, 'demo-game', 'sandbox').redisPrefix;
    expect(live).toBe('pgp:live:demo-game:');
    expect(sandbox).toBe('pgp:sandbox:demo-game:');
  });

  it('is REDIS_PREFIX when set', () => {
    expect(loadFleetSettings({ REDIS_PREFIX: 'studio:' }, 'demo-game', 'live').redisPrefix).toBe('studio:');
  });
});
