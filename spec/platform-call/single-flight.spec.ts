import { DeadlineSignal } from '../../lib/platform-call/deadline-signal.js';
import { SingleFlight } from '../../lib/platform-call/single-flight.js';

/** Flights whose work the test settles by key, and the keys whose work started. */
class Controlled {
  readonly flights = new SingleFlight<string>(() => 'E2');
  readonly started: string[] = [];
  readonly #settle = new Map<string, (value: string) => void>();

  share(key: string, signal?: DeadlineSignal): Promise<string> {
    return this.flights.share(key, () => {
      this.started.push(key);
      return new Promise<string>((resolve) => this.#settle.set(key, resolve));
    }, signal);
  }

  /** Settles the work of `key` started last. */
  settle(key: string, value: string): void {
    this.#settle.get(key)!(value);
  }
}

describe('SingleFlight', () => {
  it('shares one piece of work per key and ends it for every caller', async () => {
    const c = new Controlled();
    const { flights } = c;
    const a1 = c.share('E2:a');
    const a2 = c.share('E2:a');
    const b = c.share('E2:b');
    expect([c.started, flights.size]).toEqual([['E2:a', 'E2:b'], 2]);
    c.settle('E2:a', 'user a');
    c.settle('E2:b', 'user b');
    expect(await Promise.all([a1, a2, b])).toEqual(['user a', 'user a', 'user b']);
    expect(flights.size).toBe(0);
    // Ended: the next caller of the same key starts afresh.
    void c.share('E2:a');
    expect(c.started).toEqual(['E2:a', 'E2:b', 'E2:a']);
  });

  it('keeps every one of thousands of concurrent keys apart, through growth and removals in any order', async () => {
    const c = new Controlled();
    const { flights } = c;
    const keys = Array.from({ length: 3000 }, (_, i) => `E2:${'x'.repeat(i % 7)}${i}`);
    const answers = keys.map((k) => c.share(k));
    // A second caller of each key joins its flight: nothing new starts.
    const joined = keys.map((k) => c.share(k));
    expect([c.started.length, flights.size]).toEqual([3000, 3000]);
    // Settled in a scrambled order, with new keys started between removals.
    const order = keys.map((k, i) => ({ k, r: (i * 7919) % 3001 })).sort((x, y) => x.r - y.r).map((x) => x.k);
    const late: Promise<string>[] = [];
    order.forEach((k, i) => {
      c.settle(k, `user ${k}`);
      if (i % 10 === 0) late.push(c.share(`E2:late${i}`));
    });
    expect(await Promise.all(answers)).toEqual(keys.map((k) => `user ${k}`));
    expect(await Promise.all(joined)).toEqual(keys.map((k) => `user ${k}`));
    expect(flights.size).toBe(late.length);
    for (let i = 0; i < order.length; i += 10) c.settle(`E2:late${i}`, 'late');
    expect(new Set(await Promise.all(late))).toEqual(new Set(['late']));
    expect(flights.size).toBe(0);
  });

  it('answers the callers still waiting, in any order of leaving, and stops the work only when the last has gone', async () => {
    const c = new Controlled();
    const { flights } = c;
    const signals = Array.from({ length: 4 }, () => new DeadlineSignal(Infinity));
    const [first, second, third] = signals.slice(0, 3).map((s) => c.share('E2:v', s));
    signals[0]!.abort('caller');
    signals[2]!.abort('caller');
    // Joins after the first caller left: it waits beside the second.
    const fourth = c.share('E2:v', signals[3]);
    await expect(first).rejects.toMatchObject({ kind: 'platform_unavailable' });
    await expect(third).rejects.toMatchObject({ kind: 'platform_unavailable' });
    expect([c.started, flights.size]).toEqual([['E2:v'], 1]);
    c.settle('E2:v', 'user v');
    expect(await Promise.all([second, fourth])).toEqual(['user v', 'user v']);
    expect(flights.size).toBe(0);

    // A thousand callers of one key, all but one leaving in a scrambled order: the one left gets
    // the answer, every other its refusal, and the work ran once.
    const many = Array.from({ length: 1000 }, () => new DeadlineSignal(Infinity));
    const waiting = many.map((s) => c.share('E2:m', s));
    const leaveOrder = many.map((s, i) => ({ s, r: (i * 7919) % 1009 })).sort((x, y) => x.r - y.r).map((x) => x.s);
    for (const s of leaveOrder) if (s !== many[500]) s.abort('caller');
    expect([c.started.filter((k) => k === 'E2:m').length, flights.size]).toEqual([1, 1]);
    c.settle('E2:m', 'user m');
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes[500]).toEqual({ status: 'fulfilled', value: 'user m' });
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(999);
    expect(flights.size).toBe(0);

    // Every caller leaves, the last one first: the work's own signal aborts with the last.
    let aborted = 0;
    const leaving = [new DeadlineSignal(Infinity), new DeadlineSignal(Infinity)];
    const gone = leaving.map((s) => flights.share('E2:w', (context) => {
      context.signal!.addEventListener('abort', () => { aborted += 1; });
      return new Promise<string>(() => {});
    }, s));
    leaving[1]!.abort('caller');
    expect([aborted, flights.size]).toEqual([0, 1]);
    leaving[0]!.abort('caller');
    expect([aborted, flights.size]).toEqual([1, 0]);
    await Promise.all(gone.map((p) => expect(p).rejects.toMatchObject({ kind: 'platform_unavailable' })));
  });

  it('forgets a detached key at once, and a flight nobody waits for', async () => {
    const c = new Controlled();
    const { flights } = c;
    const first = c.share('E2:t');
    flights.detach('E2:t');
    expect(flights.size).toBe(0);
    const second = c.share('E2:t');
    expect(c.started).toEqual(['E2:t', 'E2:t']);
    c.settle('E2:t', 'second'); // the work started last: the second flight's
    expect(await second).toBe('second');
    expect(flights.size).toBe(0);

    const leaving = new DeadlineSignal(Infinity);
    const gone = c.share('E2:u', leaving);
    expect(flights.size).toBe(1);
    leaving.abort('caller');
    await expect(gone).rejects.toMatchObject({ kind: 'platform_unavailable' });
    expect(flights.size).toBe(0);
    void first; // its work was never settled: detached, nobody reads it
  });
});
