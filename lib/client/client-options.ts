import type { PlatformConfig, ResolvedPlatformConfig } from '../config/index.js';
import { configWith, resolvePlatformConfig } from '../config/index.js';
import type { CallMessage } from '../diagnostics/channels.js';
import type { ApiTokenProvider } from '../platform-call/index.js';
import type { SharingOptions } from '../store/index.js';
import type { OutageGraceOptions } from './outage-grace.js';

/**
 * Options of a {@link PlatformClient}: the platform configuration, plus an
 * optional shared {@link ApiTokenProvider}. With a provider, the
 * configuration may be left out (the provider's is used); options given
 * beside it (cache, timeouts, logger) apply to this client.
 */
export type PlatformClientOptions = (
  | (PlatformConfig & { provider?: ApiTokenProvider })
  | (Partial<PlatformConfig> & { provider: ApiTokenProvider })
  | ResolvedPlatformConfig
) & SharingOptions & OutageGraceOptions;

/**
 * Payload of the client's `'call'` event, one per platform operation: the
 * `call` channel's message. `outcome`: `success`; `rejected` (the platform
 * refused the user token or query: 4xx); `failed` (platform or
 * configuration fault: 5xx).
 */
export type CallEvent = CallMessage;

/** The client's config: its own, or the shared provider's with the client's extra options. */
export function clientConfig(options: PlatformClientOptions): ResolvedPlatformConfig {
  const { provider, store: _store, revocations: _bus, storeTimeoutMs: _timeout, ...rest } = options as Partial<PlatformConfig> & { provider?: ApiTokenProvider } & SharingOptions;
  if (provider === undefined) return resolvePlatformConfig(options as PlatformConfig);
  const base = provider.config;
  const config = Object.keys(rest).length === 0 ? base : configWith(base, rest);
  if (config.baseUrl !== base.baseUrl || config.gameId !== base.gameId || config.clientId !== base.clientId) {
    throw new TypeError('passport-game-platform: "provider" was built for another baseUrl, clientId or gameId');
  }
  return config;
}
