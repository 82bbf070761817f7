import { isPlatformError } from '../lib/index.js';
import type { PlatformClient } from '../lib/index.js';
import type { Logger } from '../lib/types.js';

/** How the startup API-token request went. */
export type WarmUpResult = 'ok' | 'misconfigured' | 'unavailable';

/**
 * Issues the API token once at startup (E1), so a wrong client_id/secret or
 * Game ID shows at once. Never throws and never stops the app: a failure is
 * logged as one line naming the fix (the error's own message, which never
 * holds a secret; the error handler later logs the same message, which the
 * app's logger then prints at most once a minute). Protected routes answer 500
 * `contact_support` (or 503 `retry_later`) until it is fixed.
 */
export async function warmUp(client: PlatformClient, logger: Logger): Promise<WarmUpResult> {
  try {
    await client.provider.getToken();
    logger.info({ baseUrl: client.config.baseUrl, gameId: client.config.gameId }, 'API token issued: the platform accepts our credentials');
    return 'ok';
  } catch (err) {
    if (isPlatformError(err) && err.kind === 'configuration') {
      logger.error({ stillServing: true, protectedRoutes: '500 contact_support' }, err.message);
      return 'misconfigured';
    }
    const message = isPlatformError(err) ? err.message : 'The platform could not be reached at startup.';
    logger.warn({ stillServing: true, protectedRoutes: '503 retry_later until the platform answers' }, message);
    return 'unavailable';
  }
}
