import type { Config } from 'jest';
import base from './jest.config.js';

// The real-browser test: Debian's Chromium driven by playwright-core.
const config: Config = {
  ...base,
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['**/spec/browser/**/*.spec.ts'],
  testTimeout: 60_000,
  maxWorkers: 1,
};

export default config;
