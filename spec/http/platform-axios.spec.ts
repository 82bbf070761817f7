import { AxiosError, AxiosHeaders } from 'axios';
import type { InternalAxiosRequestConfig } from 'axios';
import { BadBody } from '../../lib/http/index.js';
import { resolvesStatus, transformPlatformResponse } from '../../lib/http/platform-axios.js';

const config = { headers: new AxiosHeaders() } as InternalAxiosRequestConfig;
const transform = (text: string, status: number): unknown =>
  transformPlatformResponse.call(config, text, new AxiosHeaders({ 'retry-after': '1' }), status);
const thrown = (text: string, status: number): unknown => {
  try {
    transform(text, status);
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('The platform axios instance', () => {
  it('resolves every status but 5xx and 429, so that a success never becomes an error', () => {
    expect([200, 204, 302, 400, 401, 404, 499].every(resolvesStatus)).toBe(true);
    expect([429, 500, 502, 503, 599].some(resolvesStatus)).toBe(false);
  });

  it('returns parsed bodies on resolved statuses when they decide', () => {
    expect(transform('{"code":0,"value":{}}', 200)).toEqual({ code: 0, fields: { code: expect.anything(), value: {} } });
    expect(transform('{"code":40000}', 401)).toMatchObject({ code: 40000 });
    expect(transform('<html>not found</html>', 404)).toBeInstanceOf(BadBody);
  });

  it('leaves 5xx and 429 bodies to axios-retry as they are, without throwing', () => {
    expect(transform('{"code":50000}', 503)).toMatchObject({ code: 50000 });
    expect(transform('<html>busy</html>', 429)).toBeInstanceOf(BadBody);
  });

  it.each([['{"code":50000}', 200], ['{"code":50000}', 401], ['garbage', 200], ['', 204]])(
    'throws a retryable AxiosError holding the parsed body for %j on HTTP %i', (text, status) => {
      const error = thrown(text, status) as AxiosError;
      expect(error).toBeInstanceOf(AxiosError);
      expect([error.code, error.config, error.response?.status]).toEqual([AxiosError.ERR_BAD_RESPONSE, config, status]);
      expect(error.response?.data).toEqual(transform(text, 503));
      expect(error.response?.headers['retry-after']).toBe('1');
    },
  );
});
