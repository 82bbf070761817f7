import { GLOBAL_FLAGS_HELP, isDigits, parseCommandArgs, stringFlag } from './args.js';
import { UsageError, describeError } from './cli-errors.js';
import { createPlatformClient } from './client-factory.js';
import { PROGRAM, wroteHelp, type CliCommand, type CommandContext } from './command.js';
import { EXIT_CODES_HELP, ExitCode, type ExitCodeValue } from './exit-codes.js';
import { PLATFORM_FLAGS, PLATFORM_FLAGS_HELP, readPlatformSettings } from './platform-settings.js';

const FLAGS = { ...PLATFORM_FLAGS, 'member-no': { type: 'string' }, guid: { type: 'string' } } as const;

const HELP = `Usage: ${PROGRAM} lookup (--member-no N | --guid G) [flags]

Looks a member up with the platform (E3) and prints member_no and guid.
Exits 5 when the platform knows no such member.

Flags:
  --member-no N          search by member_no
  --guid G               search by guid (the game-specific user id)
${PLATFORM_FLAGS_HELP}
${GLOBAL_FLAGS_HELP}

${EXIT_CODES_HELP}

Example:
  ${PROGRAM} lookup --member-no 20005061986 --json
`;

type Query = { memberNo: string } | { guid: string };

function readQuery(values: Record<string, string | boolean | undefined>): { query: Query; label: string } {
  const memberNo = stringFlag(values, 'member-no');
  const guid = stringFlag(values, 'guid');
  if ((memberNo === undefined) === (guid === undefined)) throw new UsageError('Give exactly one of --member-no N or --guid G.');
  const [flag, value] = memberNo !== undefined ? ['--member-no', memberNo] : ['--guid', guid ?? ''];
  if (!isDigits(value)) throw new UsageError(`${flag} must be decimal digits, not "${value}".`);
  return memberNo !== undefined
    ? { query: { memberNo: value }, label: `member_no ${value}` }
    : { query: { guid: value }, label: `guid ${value}` };
}

async function run(argv: readonly string[], ctx: CommandContext): Promise<ExitCodeValue> {
  const { values } = parseCommandArgs(argv, FLAGS, 0);
  if (wroteHelp(values, ctx, HELP)) return ExitCode.OK;
  const { query, label } = readQuery(values);
  const settings = await readPlatformSettings(values, ctx.io);
  const client = createPlatformClient(settings, ctx.out);
  const stop = ctx.out.progress(`Contacting the platform at ${client.config.baseUrl} (E3: look up ${label})…`);
  try {
    const user = await client.lookupMember(query);
    stop();
    if (user === null) {
      const message = `No member with ${label} for game ${client.config.gameId}.`;
      return ctx.out.fail({ info: { kind: 'not_found', code: null, action: 'none', message }, exitCode: ExitCode.NOT_FOUND }, { query });
    }
    ctx.out.line(`✓ Member found (${label})`);
    ctx.out.line(`  member_no: ${user.memberNo}`);
    ctx.out.line(`  guid:      ${user.guid ?? "none (the member has not accepted the game's terms)"}`);
    return ctx.out.succeed({ query, user: { memberNo: user.memberNo, guid: user.guid } });
  } catch (err) {
    stop();
    return ctx.out.fail(describeError(err), { query });
  } finally {
    void client.close();
  }
}

/** `lookup`: finds a member's member_no and guid (E3). */
export const lookupCommand: CliCommand = {
  name: 'lookup',
  summary: 'look a member up (E3) by --member-no or --guid; exit 5 when not found',
  help: HELP,
  run,
};
