import { parseSessionEnd } from '../../lib/store/index.js';

const DIGEST = 'a'.repeat(64);

describe('parseSessionEnd', () => {
  it('keeps the time an end was made, and drops a stamp that is not a plausible time without refusing the end', () => {
    expect(parseSessionEnd({ kind: 'token', tokenKey: DIGEST, reason: 'logout', at: 1_795_000_000_000 })).toEqual({ kind: 'token', tokenKey: DIGEST, reason: 'logout', at: 1_795_000_000_000 });
    expect(parseSessionEnd({ kind: 'member', memberNo: '20005061986', reason: 'admin', at: 5 })).toEqual({ kind: 'member', memberNo: '20005061986', reason: 'admin', at: 5 });
    for (const at of ['1795000000000', -1, 0, 1.5, Number.NaN, Infinity, null, {}]) {
      expect(parseSessionEnd({ kind: 'token', tokenKey: DIGEST, reason: 'logout', at })).toEqual({ kind: 'token', tokenKey: DIGEST, reason: 'logout' });
    }
    // Events of instances that stamp nothing are honoured as they are.
    expect(parseSessionEnd({ kind: 'member', memberNo: '1', reason: 'admin' })).toEqual({ kind: 'member', memberNo: '1', reason: 'admin' });
  });
});
