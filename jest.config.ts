import type { Config } from 'jest';

// lossless-json ships ESM only, so Jest runs in native ESM mode
// (NODE_OPTIONS=--experimental-vm-modules, set by the npm scripts) and ts-jest
// emits ESM. Imports in our sources end in `.js` (NodeNext); the mapper strips
// the extension so Jest resolves the `.ts` file.
const config: Config = {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/spec/browser/', '<rootDir>/spec/package-install/'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // undici: only the `Client` the package uses (spec/support/undici-client.cjs says why).
    '^undici(/index\\.js)?$': '<rootDir>/spec/support/undici-client.cjs',
    // The package's own name (the examples import it as an app does): its sources, as tsconfig.json's paths say.
    '^passport-game-platform$': '<rootDir>/lib/index.ts',
    '^passport-game-platform/socket\\.io$': '<rootDir>/lib/socket-io/index.ts',
    '^passport-game-platform/([a-z-]+)$': '<rootDir>/lib/$1/index.ts',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testTimeout: 20_000,
  testSequencer: '<rootDir>/spec/support/test-sequencer.mjs',
  // The suites start real servers on loopback; two workers fit a 2-core machine.
  maxWorkers: 2,
};

export default config;
