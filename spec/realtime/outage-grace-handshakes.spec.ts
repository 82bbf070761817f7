import type { Emulator } from '../../lib/emulator/index.js';
import type { PlatformConfig } from '../../lib/index.js';
import { DEMO, startTestEmulator } from '../support/client-harness.js';
import { openIo, openWs, refusedIo, refusedWs, startRealtimeServer, type RealtimeServer } from '../support/realtime-harness.js';

describe('handshakes during a platform outage, with the outage grace on', () => {
  let emulator: Emulator;
  let rt: RealtimeServer;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator, { config: { outageGraceMs: 60_000 } as Partial<PlatformConfig> });
  });
  afterEach(() => emulator.clearFaults());
  afterAll(async () => {
    await rt.close();
    await emulator.close();
  });

  it('lets a player verified a moment ago reconnect on ws and Socket.IO, with the same ids; refuses a token never verified (503 retry_later)', async () => {
    const { access_token: token } = emulator.login(DEMO.admin, DEMO.gameId);
    const first = await openWs(rt.wsUrl, { Authorization: `Bearer ${token}` });
    first.ws.close();
    await first.closed;
    emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: Infinity });
    const ws = await openWs(rt.wsUrl, { Authorization: `Bearer ${token}` });
    expect(await ws.next('session')).toEqual({ type: 'session', member_no: DEMO.admin, guid: DEMO.adminGuid });
    const io = await openIo(rt.url, { token });
    expect(io.session).toEqual({ member_no: DEMO.admin, guid: DEMO.adminGuid });
    const unseen = emulator.login(DEMO.player, DEMO.gameId).access_token;
    expect(await refusedWs(rt.wsUrl, { Authorization: `Bearer ${unseen}` })).toMatchObject({ status: 503, body: { action: 'retry_later' } });
    expect((await refusedIo(rt.url, { token: unseen })).message).toBe('retry_later');
    ws.ws.close();
    io.socket.close();
    await ws.closed;
  });
});
