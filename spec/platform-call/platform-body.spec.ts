import { BadBody, isApiTokenRejection, isTransientCode, parsePlatformBody, readIdentifier } from '../../lib/platform-call/index.js';
import type { PlatformBody } from '../../lib/platform-call/index.js';
import { isPlatformError } from '../../lib/errors/index.js';

function body(text: string): PlatformBody {
  const parsed = parsePlatformBody(text);
  if (parsed instanceof BadBody) throw new Error(`unexpected bad body: ${parsed.reason}`);
  return parsed;
}

describe('parsePlatformBody', () => {
  it('reads the integer code of a platform JSON body', () => {
    expect(body('{"code":0,"message":"success"}').code).toBe(0);
    expect(body('{"code":40101,"message":"invalid"}').code).toBe(40101);
  });

  it.each([
    ['', 'empty body'],
    ['<html><body>502 Bad Gateway</body></html>', 'not JSON'],
    ['{"code":0,"message":"succ', 'not JSON'],
    ['[1,2]', 'not a JSON object'],
    ['{"message":"ok"}', 'no integer code'],
    ['{"code":"0"}', 'no integer code'],
    ['{"code":1.5}', 'no integer code'],
    ['{"code":0,"code":1}', 'not JSON'],
    ['{"code":0,"value":{"guid":1,"guid":2}}', 'not JSON'],
    ['{"code":0,"value":{"guid":"1","g\\u0075id":"2"}}', 'not JSON'],
  ])('turns %j into a bad body (%s) instead of throwing', (text, reason) => {
    const parsed = parsePlatformBody(text);
    expect(parsed).toBeInstanceOf(BadBody);
    expect((parsed as BadBody).reason).toBe(reason);
  });

  it('accepts a key given twice with the same value, as one key', () => {
    expect(body('{"code":0,"code":0}').code).toBe(0);
  });

  it('reads numbers next to booleans, strings with quotes and colons, and nesting', () => {
    const fields = body('{"code":0,"ok":true,"no":false,"s":"a\\":b","value":{"member_no":20005061986,"list":[1,{"x":null}]}}').fields;
    expect(readIdentifier(fields.value as Record<string, unknown>, 'member_no', 'E2')).toBe('20005061986');
    expect(fields.s).toBe('a":b');
  });
});

describe('readIdentifier', () => {
  const value = (text: string): Record<string, unknown> => body(`{"code":0,"value":${text}}`).fields.value as Record<string, unknown>;

  it('keeps every digit of identifiers above 2^53, sent as numbers or strings', () => {
    expect(readIdentifier(value('{"guid":9007199254740993}'), 'guid', 'E2')).toBe('9007199254740993');
    expect(readIdentifier(value('{"guid":"9007199254740993"}'), 'guid', 'E2')).toBe('9007199254740993');
    expect(readIdentifier(value('{"guid":123456789012345678901234567890}'), 'guid', 'E2')).toBe('123456789012345678901234567890');
  });

  it('gives null for an absent or null identifier', () => {
    expect(readIdentifier(value('{}'), 'guid', 'E3')).toBeNull();
    expect(readIdentifier(value('{"guid":null}'), 'guid', 'E3')).toBeNull();
  });

  it.each(['1.5', '-1', '1e5', '"12a"', '""', 'true', '{}', '[1]', '" 1"'])('rejects %s as a bad body', (raw) => {
    let caught: unknown;
    try {
      readIdentifier(value(`{"member_no":${raw}}`), 'member_no', 'E2');
    } catch (error) {
      caught = error;
    }
    expect(isPlatformError(caught) && caught.kind === 'platform_unavailable' && caught.status === 503).toBe(true);
    expect((caught as Error).message).toContain('member_no is not a decimal identifier');
  });
});

describe('what a code means for the call', () => {
  it('classifies reissue and transient codes', () => {
    expect([40101, 40103].every(isApiTokenRejection)).toBe(true);
    expect([0, 40000, 40105, 50000].some(isApiTokenRejection)).toBe(false);
    expect(isTransientCode(50000)).toBe(true);
    expect(isTransientCode(40000)).toBe(false);
  });
});
