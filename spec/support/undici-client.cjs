// Jest only (jest.config.ts maps `undici` and `undici/index.js` here). The package uses undici's `Client` alone, and
// undici's entry loads every part of undici (fetch, WebSocket, mocks, caches): about 100 ms of
// CPU in each test file's fresh module registry, over a hundred files. This hands over the same
// `Client` class from its own module. Programs the tests spawn load the real entry.
exports.Client = require('undici/lib/dispatcher/client.js');
