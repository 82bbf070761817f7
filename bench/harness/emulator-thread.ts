// The emulator in a worker thread of its own, for a measurement that must not count its work:
// posts its URL, closes on any message from the thread that started it.
import { parentPort } from 'node:worker_threads';
import { startEmulator } from '../../lib/emulator/index.js';

const emulator = await startEmulator({});
parentPort!.once('message', () => {
  void emulator.close().then(() => parentPort!.close());
});
parentPort!.postMessage(emulator.url);
