import { validateSeed } from './seed.js';
import type { Emulator, EmulatorOptions } from './types.js';

/**
 * What the standalone emulator prints at start: base URL (first line), seeded credentials (dev
 * credentials of the emulator only), an `export PLATFORM_...` line giving an app's environment what it needs to reach
 * this emulator, and ready `curl` commands.
 */
export function cliBanner(emulator: Emulator, rawSeed: NonNullable<EmulatorOptions['seed']>): string {
  const seed = validateSeed(rawSeed);
  const url = emulator.url;
  const lines = [`Platform emulator listening on ${url} (environment: ${emulator.environment})`, '', 'Clients (E1 credentials):'];
  for (const c of seed.clients) {
    const usable = c.environment === undefined || c.environment === emulator.environment;
    const note = usable ? '' : `  [${c.environment} only: E1 answers 40105 here]`;
    lines.push(`  client_id=${c.client_id} client_secret=${c.client_secret} service_id=${c.service_id}${note}`);
  }
  lines.push('', 'Members:');
  for (const m of seed.members) {
    const guids = Object.entries(m.guids).map(([g, v]) => `${g}:${v}`).join(' ') || 'no guid';
    lines.push(`  member_no=${m.member_no} guid ${guids}${m.device_registered ? '' : ' (device not registered)'}${m.nickname ? ` "${m.nickname}"` : ''}`);
  }
  const member = seed.members[0]?.member_no ?? '<member_no>';
  const client = seed.clients.find((c) => c.environment === undefined || c.environment === emulator.environment) ?? seed.clients[0];
  const game = client?.service_id ?? '<game_id>';
  const json = (o: object): string => `'${JSON.stringify(o)}'`;
  // The same variables fromEnv() reads, as one `export` line a POSIX shell takes as pasted (bare
  // NAME=value lines would set shell variables the app started next never sees).
  const variables = [
    `PLATFORM_BASE_URL=${url}`,
    `PLATFORM_CLIENT_ID=${client?.client_id ?? '<client_id>'}`,
    `PLATFORM_CLIENT_SECRET=${client?.client_secret ?? '<client_secret>'}`,
    `PLATFORM_GAME_ID=${game}`,
  ];
  lines.push(
    '',
    'Paste into the shell that starts your app (fromEnv() reads these):',
    `  export ${variables.join(' ')}`,
    'or write them to a .env file, one per line, and start Node with --env-file=.env (nothing else reads .env).',
  );
  lines.push(
    '',
    'Mint a user token:',
    `  curl -s -X POST ${url}/_emulator/login -H 'content-type: application/json' -d ${json({ member_no: member, game_id: game })}`,
    'Get an API token (E1):',
    `  curl -s -X POST ${url}/auth/v5/server_token -H 'content-type: application/json' -d ${json({ client_id: client?.client_id, client_secret: client?.client_secret, service_id: game })}`,
    `Browser login page: ${url}/_emulator/web/login?redirect_url=${encodeURIComponent('http://127.0.0.1:3000/event')}`,
    '',
    'Press Ctrl+C to stop.',
    '',
  );
  return lines.join('\n');
}
