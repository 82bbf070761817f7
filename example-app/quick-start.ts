/** One ready-to-paste command and what it answers. */
export interface QuickStartCall {
  title: string;
  command: string;
  /** HTTP status and the JSON fields the answer contains. */
  expectStatus: number;
  expectBody: Record<string, unknown>;
}

/** Inputs of {@link quickStartCalls}; tokens are freshly minted user tokens. */
export interface QuickStartInput {
  appUrl: string;
  emulatorUrl: string;
  gameId: string;
  adminIsAllowed: boolean;
  members: {
    admin: { memberNo: string; token: string };
    player: { memberNo: string; guid: string | null; token: string };
    noGuid: { memberNo: string; token: string };
    unregisteredDevice: { memberNo: string; token: string };
  };
}

const bearer = (token: string): string => `-H 'Authorization: Bearer ${token}'`;

/** The demo calls `npm start` prints (and the acceptance test runs). */
export function quickStartCalls(input: QuickStartInput): QuickStartCall[] {
  const { appUrl, members } = input;
  const me = (token: string): string => `curl -s ${appUrl}/api/me ${bearer(token)}`;
  const admin = (query: string, token: string): string => `curl -s '${appUrl}/admin/members?${query}' ${bearer(token)}`;
  const player = { member_no: members.player.memberNo, guid: members.player.guid };
  const lookup = members.player.guid === null
    ? `search_type=member_no&value=${members.player.memberNo}`
    : `search_type=guid&value=${members.player.guid}`;
  return [
    { title: 'A player asks who they are (E2)', command: me(members.player.token), expectStatus: 200, expectBody: player },
    {
      title: 'An admin (ADMIN_MEMBER_NOS) looks a member up (E3)',
      command: admin(lookup, members.admin.token),
      expectStatus: input.adminIsAllowed ? 200 : 403,
      expectBody: input.adminIsAllowed ? player : { action: 'denied' },
    },
    {
      title: 'A player is not an admin',
      command: admin(`search_type=member_no&value=${members.admin.memberNo}`, members.player.token),
      expectStatus: 403,
      expectBody: { action: 'denied' },
    },
    {
      title: "A member who has not accepted the game's terms has no guid",
      command: me(members.noGuid.token),
      expectStatus: 200,
      expectBody: { member_no: members.noGuid.memberNo, guid: null },
    },
    {
      title: 'A member whose device is not registered (platform code 46217)',
      command: me(members.unregisteredDevice.token),
      expectStatus: 403,
      expectBody: { action: 'register_device', code: 46217 },
    },
    { title: 'No token at all', command: `curl -s ${appUrl}/api/me`, expectStatus: 401, expectBody: { action: 'login' } },
  ];
}

/** The text `npm start` prints in emulator mode. */
export function quickStartText(input: QuickStartInput): string {
  const login = JSON.stringify({ member_no: input.members.player.memberNo, game_id: input.gameId });
  const lines = [
    '',
    `Embedded platform emulator: ${input.emulatorUrl} (game ${input.gameId}; demo data only)`,
    `Demo members: ${input.members.admin.memberNo} admin, ${input.members.player.memberNo} player, `
      + `${input.members.noGuid.memberNo} no guid, ${input.members.unregisteredDevice.memberNo} device not registered`,
    '',
    'Try it (the tokens below are valid for 6 hours):',
    '',
  ];
  for (const call of quickStartCalls(input)) {
    lines.push(`# ${call.title}`, call.command, `#   -> ${call.expectStatus} ${JSON.stringify(call.expectBody)}`, '');
  }
  lines.push(
    '# A fresh user token for any member (the emulator\'s test-control API)',
    `curl -s -X POST ${input.emulatorUrl}/_emulator/login -H 'Content-Type: application/json' -d '${login}'`,
    '',
    `Web event page (log in on the emulator's page; use 127.0.0.1, not localhost, so the cookie is shared): ${input.appUrl}/event`,
  );
  return lines.join('\n');
}
