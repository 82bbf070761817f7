import type { Emulator } from '../../lib/emulator/index.js';
import { DEFAULT_MAX_QUEUED_BYTES } from '../../lib/socket-io/index.js';
import { DEMO, startTestEmulator } from '../support/client-harness.js';
import { startRealtimeServer, type RealtimeServer } from '../support/realtime-harness.js';
import { until } from '../support/until.js';

const FLOOD_BYTES = 15 * 1024 * 1024;
const SEPARATOR = '\x1e';

type EngineConn = { readyState: string; writeBuffer: Array<{ data?: unknown }> };

// A player that stops reading and keeps asking for acknowledgements would have
// the server queue every answer, memory growing with the flood until the
// heartbeat ends it. Long polling shows it without the kernel's buffers in between:
// a client that sends no GET reads nothing, and everything waits in the server.
describe('Socket.IO: a peer that stops reading while it floods acknowledged pings', () => {
  let emulator: Emulator;
  let rt: RealtimeServer;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator);
  });
  afterAll(async () => {
    await rt.close();
    await emulator.close();
  });

  it('is closed once its backlog passes the bound, long before 15 MB of pings', async () => {
    const base = `${rt.url}/socket.io/?EIO=4&transport=polling`;
    const open = await (await fetch(base)).text();
    const { sid } = JSON.parse(open.slice(1)) as { sid: string };
    const url = `${base}&sid=${sid}`;
    const post = (body: string): Promise<Response> => fetch(url, { method: 'POST', body, headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    await post(`40${JSON.stringify({ token: emulator.login(DEMO.admin).access_token })}`);
    let received = '';
    while (!received.includes('"session"')) received += await (await fetch(url)).text();
    expect(rt.registry.size).toBe(1);
    const [serverSocket] = rt.io.of('/').sockets.values();
    const conn = serverSocket!.conn as unknown as EngineConn;
    let closeReason: string | undefined;
    serverSocket!.once('disconnect', (reason) => (closeReason = reason));

    // From here on the client never polls: every answer stays with the server.
    let sent = 0;
    let ackId = 0;
    let mostQueued = 0;
    while (sent < FLOOD_BYTES && closeReason === undefined) {
      const body = Array.from({ length: 2000 }, () => `42${ackId++}["ping"]`).join(SEPARATOR);
      sent += body.length;
      const answer = await post(body).catch(() => undefined);
      mostQueued = Math.max(mostQueued, conn.writeBuffer.length);
      if (answer?.status !== 200) break;
    }
    await until(() => closeReason !== undefined, 15_000, 'the server to close the flooding connection');
    expect(closeReason).toBe('forced close');
    expect(conn.readyState).toBe('closed');
    expect(sent).toBeLessThan(FLOOD_BYTES / 10);
    // Each queued answer counts at least 64 bytes against the bound.
    expect(mostQueued).toBeLessThanOrEqual(DEFAULT_MAX_QUEUED_BYTES / 64);
    await until(() => rt.registry.size === 0, 15_000, 'the session to end');
  });
});
