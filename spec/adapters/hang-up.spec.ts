import { EventEmitter } from 'node:events';
import { abortOnHangUp } from '../../lib/adapters/hang-up.js';
import { CALLER_GONE } from '../../lib/http/aborted.js';

class FakeResponse extends EventEmitter {
  writableEnded = false;
}

describe('abortOnHangUp', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'res'],
    ['an object without events', {}],
    ['a wrapper around null', { raw: null }],
  ])('has nothing to watch on %s, and does not throw', (_name, res) => {
    expect(abortOnHangUp(res)).toBeUndefined();
  });

  it('aborts with the caller-gone reason when the client hangs up before the answer', () => {
    const res = new FakeResponse();
    const watch = abortOnHangUp(res)!;
    res.emit('close');
    expect(watch.signal.aborted).toBe(true);
    expect(watch.signal.reason).toBe(CALLER_GONE);
  });

  it('does not abort when the response was already answered, or once stopped', () => {
    const answered = new FakeResponse();
    const first = abortOnHangUp(answered)!;
    answered.writableEnded = true;
    answered.emit('close');
    expect(first.signal.aborted).toBe(false);

    const stopped = new FakeResponse();
    const second = abortOnHangUp(stopped)!;
    second.stop();
    expect(stopped.listenerCount('close')).toBe(0);
    stopped.emit('close');
    expect(second.signal.aborted).toBe(false);
  });

  it("watches the Node response inside a framework's reply (`reply.raw`)", () => {
    const raw = new FakeResponse();
    const watch = abortOnHangUp({ raw })!;
    raw.emit('close');
    expect(watch.signal.aborted).toBe(true);
  });
});
