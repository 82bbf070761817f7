import { PlatformError } from '../../lib/index.js';
import { ConfigurationError, UsageError, describeError } from '../../lib/cli/cli-errors.js';
import { ExitCode } from '../../lib/cli/exit-codes.js';
import { Output } from '../../lib/cli/output.js';

function captured(json: boolean): { out: Output; stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = new Output({ stdout: { write: (t: string) => stdout.push(t) }, stderr: { write: (t: string) => stderr.push(t) }, env: {} }, { json, debug: false });
  return { out, stdout, stderr };
}

describe('Output', () => {
  it('scrubs registered secrets from every line, human and JSON', () => {
    const human = captured(false);
    human.out.addSecret('s3cr3t-value');
    human.out.line('leaked s3cr3t-value twice s3cr3t-value');
    human.out.note('and s3cr3t-value here');
    expect(human.stdout.join('')).toBe('leaked [redacted] twice [redacted]\n');
    expect(human.stderr.join('')).toBe('and [redacted] here\n');
    const json = captured(true);
    json.out.addSecret('s3cr3t-value');
    json.out.succeed({ value: 's3cr3t-value' });
    expect(JSON.parse(json.stdout.join(''))).toEqual({ ok: true, value: '[redacted]' });
  });

  it('writes one JSON object per command and nothing else in --json mode', () => {
    const { out, stdout, stderr } = captured(true);
    out.line('human only');
    out.check({ name: 'x', ok: false, detail: 'd', fix: 'f' });
    const status = out.fail(describeError(new UsageError('bad flag')), { extra: 1 });
    expect(status).toBe(ExitCode.USAGE);
    expect(stdout).toEqual(['{"ok":false,"extra":1,"error":{"kind":"usage","code":null,"action":"none","message":"bad flag"}}\n']);
    expect(stderr).toEqual([]);
  });
});

describe('describeError', () => {
  it.each([
    [new PlatformError({ kind: 'invalid_token', code: 40000, message: 'm' }), ExitCode.FAILURE],
    [new PlatformError({ kind: 'device_not_registered', code: 46217, message: 'm' }), ExitCode.FAILURE],
    [new PlatformError({ kind: 'configuration', code: 40105, message: 'm' }), ExitCode.CONFIGURATION],
    [new PlatformError({ kind: 'platform_unavailable', message: 'm' }), ExitCode.UNAVAILABLE],
    [new PlatformError({ kind: 'not_found', message: 'm' }), ExitCode.NOT_FOUND],
    [new ConfigurationError('m'), ExitCode.CONFIGURATION],
    [new UsageError('m'), ExitCode.USAGE],
    [new Error('m'), ExitCode.FAILURE],
  ])('maps %p to its exit status', (error, status) => {
    expect(describeError(error).exitCode).toBe(status);
  });
});
