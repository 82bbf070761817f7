import { EventEmitter } from 'node:events';
import { admitHandshake, OVERTAKEN, PendingHandshakes, watchLeave } from '../../lib/adapters/index.js';

// The kit's one watch on a client that can leave, and its handshake way in built on it.
describe('watchLeave', () => {
  it('aborts once on the first leaving event, calls onLeave once, and leaves no listener behind', () => {
    const socket = new EventEmitter();
    let left = 0;
    const watch = watchLeave(socket, ['end', 'close', 'error'], () => void (left += 1));
    socket.emit('end');
    socket.emit('close');
    expect([watch.signal.aborted, left]).toEqual([true, 1]);
    expect(['end', 'close', 'error'].map((event) => socket.listenerCount(event))).toEqual([0, 0, 0]);
  });

  it('does not abort for a client already answered, nor after stop()', () => {
    const res = new EventEmitter();
    const answered = watchLeave(res, ['close'], undefined, () => true);
    res.emit('close');
    expect(answered.signal.aborted).toBe(false);
    const stopped = watchLeave(res, ['close']);
    stopped.stop();
    res.emit('close');
    expect([stopped.signal.aborted, res.listenerCount('close')]).toEqual([false, 0]);
  });
});

describe('admitHandshake', () => {
  const entry = (pending: PendingHandshakes, client: EventEmitter, verify: (signal: AbortSignal) => Promise<string>, log: string[]) =>
    admitHandshake({ verify, pending, key: client, client, leaveOn: ['close'], onLeave: () => log.push('left'), onShutdown: () => log.push('shutdown') });

  it('resolves with the verification when it settled the handshake, and forgets it', async () => {
    const pending = new PendingHandshakes();
    const log: string[] = [];
    expect(await entry(pending, new EventEmitter(), () => Promise.resolve('player'), log)).toBe('player');
    expect([pending.size, log]).toEqual([0, []]);
  });

  it('aborts the verification when the client leaves, and then resolves OVERTAKEN, never the refusal', async () => {
    const pending = new PendingHandshakes();
    const client = new EventEmitter();
    const log: string[] = [];
    const admitted = entry(pending, client, (signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))), log);
    client.emit('close');
    expect(await admitted).toBe(OVERTAKEN);
    expect([pending.size, log]).toEqual([0, ['left']]);
  });

  it('lets shutdown end it: aborted, told once, OVERTAKEN though the platform answers afterwards', async () => {
    const pending = new PendingHandshakes();
    const log: string[] = [];
    let answer: (value: string) => void = () => undefined;
    let seen: AbortSignal | undefined;
    const admitted = entry(pending, new EventEmitter(), (signal) => new Promise((resolve) => { seen = signal; answer = resolve; }), log);
    expect(pending.endAll()).toBe(1);
    answer('player');
    expect(await admitted).toBe(OVERTAKEN);
    expect([seen?.aborted, log]).toEqual([true, ['shutdown']]);
  });

  it('rejects with the refusal when it settled the handshake', async () => {
    const pending = new PendingHandshakes();
    await expect(entry(pending, new EventEmitter(), () => Promise.reject(new Error('refused')), [])).rejects.toThrow('refused');
    expect(pending.size).toBe(0);
  });
});
