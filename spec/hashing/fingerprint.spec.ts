import { createHash } from 'node:crypto';
import { fingerprint, tokenKey } from '../../lib/hashing/fingerprint.js';

describe('fingerprint', () => {
  it('is the first 8 hex digits of the SHA-256, never the input', () => {
    const secret = 'a-very-secret-api-token';
    expect(fingerprint(secret)).toBe(createHash('sha256').update(secret).digest('hex').slice(0, 8));
    expect(fingerprint(secret)).toMatch(/^[0-9a-f]{8}$/);
    expect(fingerprint(secret)).not.toBe(fingerprint(`${secret}x`));
    expect(tokenKey(secret)).toHaveLength(64);
  });
});
