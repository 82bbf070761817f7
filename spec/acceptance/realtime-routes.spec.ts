import net from 'node:net';
import { DEMO, listenWithRealtime, startAppHarness, type AppHarness } from '../support/app-harness.js';
import { ioDisconnected, nextIo, openIo, openWs } from '../support/realtime-harness.js';

describe('example app: Socket.IO and /ws on the API port, logout and admin disconnect', () => {
  let harness: AppHarness;
  let app: Awaited<ReturnType<typeof listenWithRealtime>>;
  beforeAll(async () => {
    harness = await startAppHarness();
    app = await listenWithRealtime(harness.app);
  });
  afterAll(async () => {
    await app.close();
    await harness.close();
  });
  const post = (path: string, token: string): Promise<Response> => fetch(`${app.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });

  it('answers ping on both transports with the member of the connection', async () => {
    const token = harness.token(DEMO.player);
    const { socket } = await openIo(app.url, { token });
    expect(await socket.emitWithAck('ping')).toEqual({ member_no: DEMO.player });
    const probe = await openWs(`${app.url.replace('http', 'ws')}/ws`, { Authorization: `Bearer ${token}` });
    probe.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await probe.next('pong')).toEqual({ type: 'pong', member_no: DEMO.player });
    expect(app.realtime.size).toBe(2);
    socket.close();
    probe.ws.close();
    await probe.closed;
  });

  it('POST /api/logout answers 204 and ends that token\'s connections (session:ended logout), not the others', async () => {
    const token = harness.token(DEMO.player);
    const { socket } = await openIo(app.url, { token });
    const other = await openIo(app.url, { token: harness.token(DEMO.player) });
    const probe = await openWs(`${app.url.replace('http', 'ws')}/ws`, { Authorization: `Bearer ${token}` });
    const ended = nextIo(socket, 'session:ended');
    const response = await post('/api/logout', token);
    expect(response.status).toBe(204);
    expect(await ended).toEqual({ reason: 'logout' });
    await ioDisconnected(socket);
    expect(await probe.closed).toEqual({ code: 4401, reason: 'logout' });
    expect(other.socket.connected).toBe(true);
    other.socket.close();
  });

  it('POST /admin/members/<member_no>/disconnect ends the member\'s connections (202, session:ended admin); 403 for others', async () => {
    const { socket } = await openIo(app.url, { token: harness.token(DEMO.player) });
    const denied = await post(`/admin/members/${DEMO.player}/disconnect`, harness.token(DEMO.player));
    expect(denied.status).toBe(403);
    expect(socket.connected).toBe(true);
    const ended = nextIo(socket, 'session:ended');
    const response = await post(`/admin/members/${DEMO.player}/disconnect`, harness.token(DEMO.admin));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ member_no: DEMO.player, disconnected_here: 1 });
    expect(await ended).toEqual({ reason: 'admin' });
    expect((await post('/api/logout', 'bad"token')).status).toBe(401);
  });
  it('answers 404 problem+json to an upgrade on a path nothing serves, and closes the socket', async () => {
    const { port } = new URL(app.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => { answer += chunk; });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(answer).toContain('Content-Type: application/problem+json; charset=utf-8');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 404 });
  });
});
