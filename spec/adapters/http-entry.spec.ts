import { EventEmitter } from 'node:events';
import { abortOnHangUp } from '../../lib/adapters/index.js';
import { CALLER_GONE } from '../../lib/platform-call/aborted.js';
import { DeadlineSignal } from '../../lib/platform-call/deadline-signal.js';
import { bridgeSignal } from '../../lib/platform-call/signal-bridge.js';

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

  it('aborts when the client hangs up before the answer, and so does the AbortSignal a verifier of its own gets', () => {
    const res = new FakeResponse();
    const watch = abortOnHangUp(res)!;
    const forVerifier = bridgeSignal(watch.signal).signal;
    res.emit('close');
    expect(watch.signal.aborted).toBe(true);
    expect([forVerifier.aborted, forVerifier.reason]).toEqual([true, CALLER_GONE]);
  });

  it('bridges a light signal already aborted, and leaves nothing on a signal once released', () => {
    const gone = new DeadlineSignal(Infinity);
    gone.abort('caller');
    const bridged = bridgeSignal(gone).signal;
    expect([bridged.aborted, bridged.reason]).toEqual([true, CALLER_GONE]);
    // A long-lived signal: a released bridge no longer follows it.
    const living = new DeadlineSignal(Infinity);
    const released = bridgeSignal(living);
    released.release();
    const kept = bridgeSignal(living);
    living.abort('caller');
    expect([released.signal.aborted, kept.signal.aborted]).toEqual([false, true]);
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
