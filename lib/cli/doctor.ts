import type { PlatformClient } from '../index.js';
import { isDigits, parseCommandArgs, stringFlag, GLOBAL_FLAGS_HELP } from './args.js';
import { ConfigurationError, UsageError, describeError } from './cli-errors.js';
import { buildClient, fixFor } from './client-factory.js';
import { PROGRAM, wroteHelp, type CliCommand, type CommandContext } from './command.js';
import { EXIT_CODES_HELP, ExitCode, type ExitCodeValue } from './exit-codes.js';
import { describeExpiry, tokenFingerprint } from './format.js';
import type { CheckLine } from './output.js';
import { checkPlatformSettings } from './platform-checks.js';
import { PLATFORM_FLAGS, PLATFORM_FLAGS_HELP, readPlatformSettings } from './platform-settings.js';

const FLAGS = { ...PLATFORM_FLAGS, 'probe-member-no': { type: 'string' } } as const;

const HELP = `Usage: ${PROGRAM} doctor [flags]

Checks the configuration line by line, reaches the platform and issues an API
token (E1), shown only as its SHA-256 fingerprint and expiry. With
--probe-member-no, also looks that member up (E3) to prove the token works.
Exits 0 only when every check passes.

Flags:
  --probe-member-no N    look up member_no N with the API token (E3)
${PLATFORM_FLAGS_HELP}
${GLOBAL_FLAGS_HELP}

${EXIT_CODES_HELP}

Example:
  PLATFORM_ENV=sandbox PLATFORM_CLIENT_ID=... PLATFORM_CLIENT_SECRET=... PLATFORM_GAME_ID=... ${PROGRAM} doctor
`;

interface TokenInfo {
  fingerprint: string;
  expiresAt: string | null;
}

class DoctorRun {
  readonly checks: CheckLine[] = [];
  readonly data: Record<string, unknown> = {};

  private readonly ctx: CommandContext;

  constructor(ctx: CommandContext) {
    this.ctx = ctx;
  }

  report(check: CheckLine): void {
    this.checks.push(check);
    this.ctx.out.check(check);
  }

  fail(err: unknown, check?: Omit<CheckLine, 'ok' | 'detail' | 'fix'>): ExitCodeValue {
    const described = describeError(err);
    if (check) this.report({ ...check, ok: false, detail: described.info.message, ...withFix(fixFor(err)) });
    const facts = described.info.code === null ? '' : `, platform code ${described.info.code}`;
    this.ctx.out.line(`Doctor found a problem (exit status ${described.exitCode}${facts}).`);
    return this.ctx.out.fail(described, { checks: this.checks, ...this.data }, undefined, false);
  }

  succeed(): ExitCodeValue {
    this.ctx.out.line('All checks passed.');
    return this.ctx.out.succeed({ checks: this.checks, ...this.data });
  }
}

function withFix(fix: string | undefined): { fix?: string } {
  return fix === undefined ? {} : { fix };
}

async function issueToken(client: PlatformClient, run: DoctorRun, ctx: CommandContext): Promise<TokenInfo> {
  const stop = ctx.out.progress(`Contacting the platform at ${client.config.baseUrl} (E1: issue API token)…`);
  let token: string;
  try {
    token = await client.provider.getToken();
  } finally {
    stop();
  }
  ctx.out.addSecret(token);
  const { expiresAt } = client.provider.state;
  const info: TokenInfo = { fingerprint: tokenFingerprint(token), expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString() };
  const expiry = expiresAt === undefined ? 'expiry not given' : `expires ${describeExpiry(expiresAt, client.config.clock.now())}`;
  run.report({ name: 'API token (E1)', ok: true, detail: `issued, fingerprint ${info.fingerprint}, ${expiry}` });
  return info;
}

async function probeLookup(client: PlatformClient, memberNo: string, run: DoctorRun, ctx: CommandContext): Promise<void> {
  const stop = ctx.out.progress(`Looking up member_no ${memberNo} (E3)…`);
  try {
    const user = await client.lookupMember({ memberNo });
    run.data.probe = { memberNo, found: user !== null, guid: user?.guid ?? null };
    const detail = user === null
      ? `API token accepted; no member ${memberNo} for game ${client.config.gameId}`
      : `API token accepted; member_no ${user.memberNo}, guid ${user.guid ?? 'none (terms not accepted)'}`;
    run.report({ name: 'Probe lookup (E3)', ok: true, detail });
  } finally {
    stop();
  }
}

async function run(argv: readonly string[], ctx: CommandContext): Promise<ExitCodeValue> {
  const { values } = parseCommandArgs(argv, FLAGS, 0);
  if (wroteHelp(values, ctx, HELP)) return ExitCode.OK;
  const probe = stringFlag(values, 'probe-member-no');
  if (probe !== undefined && !isDigits(probe)) throw new UsageError(`--probe-member-no must be a member_no (decimal digits), not "${probe}".`);

  const settings = await readPlatformSettings(values, ctx.io);
  ctx.out.addSecret(settings.values.clientSecret);
  const doctor = new DoctorRun(ctx);
  for (const check of checkPlatformSettings(settings)) doctor.report(check);
  if (doctor.checks.some((check) => !check.ok)) {
    return doctor.fail(new ConfigurationError('The configuration is incomplete or invalid: fix the lines marked ✗.'));
  }

  let client: PlatformClient;
  try {
    client = buildClient(settings, ctx.out);
  } catch (err) {
    return doctor.fail(err, { name: 'Options' });
  }
  try {
    doctor.data.platform = { baseUrl: client.config.baseUrl, gameId: client.config.gameId };
    doctor.report({ name: 'Options', ok: true, detail: `accepted; platform ${client.config.baseUrl}` });
    try {
      doctor.data.apiToken = await issueToken(client, doctor, ctx);
    } catch (err) {
      return doctor.fail(err, { name: 'API token (E1)' });
    }
    if (probe !== undefined) {
      try {
        await probeLookup(client, probe, doctor, ctx);
      } catch (err) {
        return doctor.fail(err, { name: 'Probe lookup (E3)' });
      }
    }
    return doctor.succeed();
  } finally {
    void client.close();
  }
}

/** `doctor`: checks configuration, reaches the platform, issues an API token. */
export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: 'check configuration, reach the platform, issue an API token (fingerprint only)',
  help: HELP,
  run,
};
