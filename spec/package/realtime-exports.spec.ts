import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SHARED = ['SessionRegistry', 'LiveConnection', 'Reverifier', 'WS_CLOSE', 'DEFAULT_REVERIFY_INTERVAL_MS'];

describe('the real-time classes', () => {
  it('are exported from passport-game-platform/realtime', async () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(manifest.exports['./realtime']).toEqual({ types: './dist/realtime/index.d.ts', default: './dist/realtime/index.js' });
    const realtime = (await import('../../lib/realtime/index.js')) as Record<string, unknown>;
    for (const name of SHARED) expect(realtime[name]).toBeDefined();
  });

  it('are exported nowhere else: not from the root, /ws, /socket.io or /colyseus', async () => {
    // One at a time: jest's module linker does not share a graph being loaded in parallel.
    const entries = [
      await import('../../lib/index.js'),
      await import('../../lib/ws/index.js'),
      await import('../../lib/socket-io/index.js'),
      await import('../../lib/colyseus/index.js'),
    ];
    for (const entry of entries) {
      expect(Object.keys(entry).filter((name) => SHARED.includes(name))).toEqual([]);
    }
  });
});
