import type { PlatformSettings, PlatformSources } from './load-config.js';

/**
 * The startup banner's platform line: each value with the variable it came
 * from. The client secret is shown only as "set", never its value.
 *
 * `Platform: https://api.gate8.com (from PLATFORM_ENV), game MYGAME (from PLATFORM_GAME_ID), ...`
 */
export function platformBanner(platform: PlatformSettings, sources: PlatformSources): string {
  const labelled = platform.environment !== undefined && sources.baseUrl !== sources.environment;
  const parts = [
    `${platform.baseUrl} (from ${sources.baseUrl ?? 'PLATFORM_BASE_URL'})`,
    ...(labelled ? [`${platform.environment} credentials (from ${sources.environment ?? 'PLATFORM_ENV'})`] : []),
    `game ${platform.gameId} (from ${sources.gameId ?? 'PLATFORM_GAME_ID'})`,
    `client_id ${platform.clientId} (from ${sources.clientId ?? 'PLATFORM_CLIENT_ID'})`,
    `client_secret set (from ${sources.clientSecret ?? 'PLATFORM_CLIENT_SECRET'})`,
  ];
  if (platform.instanceId !== undefined) parts.push(`instance_id ${platform.instanceId} (from ${sources.instanceId ?? 'PLATFORM_INSTANCE_ID'})`);
  parts.push(platform.timeoutMs === undefined ? 'timeout default' : `timeout ${platform.timeoutMs} ms (from ${sources.timeoutMs ?? 'PLATFORM_TIMEOUT_MS'})`);
  return `Platform: ${parts.join(', ')}`;
}
