import { GLOBAL_FLAGS_HELP, booleanFlag, parseCommandArgs, protectDashTokens } from './args.js';
import { UsageError, describeError } from './cli-errors.js';
import { createPlatformClient } from './client-factory.js';
import { PROGRAM, wroteHelp, type CliCommand, type CommandContext } from './command.js';
import { EXIT_CODES_HELP, ExitCode, type ExitCodeValue } from './exit-codes.js';
import { tokenFingerprint } from './format.js';
import { hasPipedStdin, readStdinLine } from './io.js';
import { PLATFORM_FLAGS, PLATFORM_FLAGS_HELP, readPlatformSettings } from './platform-settings.js';

const FLAGS = { ...PLATFORM_FLAGS, web: { type: 'boolean' } } as const;

const HELP = `Usage: ${PROGRAM} verify [<user-token> | -] [flags]

Verifies a Game User Access Token with the platform (E2) and prints the
member's member_no and guid, or the platform's code and what it means. The
token is shown only as its SHA-256 fingerprint. Prefer piping it in, so it
stays out of shell history: with "-", or no argument and stdin piped, the
first line of stdin is the token. A short argument starting with "-" is
taken for a flag: put such a token after "--".

Flags:
  --web                  the token is a web (cookie) token: verify it with
                         GET /member/v3.0/{game_id} instead of E2
${PLATFORM_FLAGS_HELP}
${GLOBAL_FLAGS_HELP}

${EXIT_CODES_HELP}

Examples:
  pbpaste | ${PROGRAM} verify -
  ${PROGRAM} verify --json - < token.txt
`;

async function readToken(positional: string | undefined, ctx: CommandContext, secretOnStdin: boolean): Promise<string> {
  const fromStdin = positional === '-' || (positional === undefined && hasPipedStdin(ctx.io));
  if (!fromStdin) {
    if (positional === undefined) throw new UsageError(`Give the user token: "${PROGRAM} verify <user-token>", or pipe it in: "... | ${PROGRAM} verify -".`);
    return positional;
  }
  if (secretOnStdin) throw new UsageError('stdin can carry the client secret or the user token, not both: set PLATFORM_CLIENT_SECRET, or pass the token as an argument.');
  return readStdinLine(ctx.io, 'the user token');
}

async function run(argv: readonly string[], ctx: CommandContext): Promise<ExitCodeValue> {
  const { values, positionals } = parseCommandArgs(protectDashTokens(argv, FLAGS), FLAGS, 1);
  if (wroteHelp(values, ctx, HELP)) return ExitCode.OK;
  const secretOnStdin = booleanFlag(values, 'client-secret-stdin');
  const positional = positionals[0];
  if (positional !== undefined && positional !== '-') ctx.out.addSecret(positional);
  const token = await readToken(positional, ctx, secretOnStdin);
  ctx.out.addSecret(token);
  const tokenFp = tokenFingerprint(token);
  const settings = await readPlatformSettings(values, ctx.io);
  const client = createPlatformClient(settings, ctx.out);
  const web = booleanFlag(values, 'web');
  const stop = ctx.out.progress(`Contacting the platform at ${client.config.baseUrl} (${web ? 'web: verify web token' : 'E2: verify user token'})…`);
  try {
    const user = web ? await client.verifyWebToken(token) : await client.verifyUserToken(token);
    stop();
    ctx.out.line(`✓ Valid user token ${tokenFp}`);
    ctx.out.line(`  member_no: ${user.memberNo}`);
    ctx.out.line(`  guid:      ${user.guid ?? 'none (terms of service not accepted)'}`);
    return ctx.out.succeed({ tokenFingerprint: tokenFp, user: { memberNo: user.memberNo, guid: user.guid } });
  } catch (err) {
    stop();
    return ctx.out.fail(describeError(err), { tokenFingerprint: tokenFp }, `User token ${tokenFp} was not accepted.`);
  } finally {
    void client.close();
  }
}

/** `verify`: verifies a user token (E2). */
export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'verify a user token (E2): member_no and guid, or the code and its meaning',
  help: HELP,
  run,
};
