// `npm start`: runs the example app. With no PLATFORM_BASE_URL/PLATFORM_ENV it
// starts the embedded emulator, seeds demo members and prints curl commands.
import '../lib/runtime-check.js'; // first: an unsupported Node exits here, naming the requirement
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformClient, resolvePlatformConfig } from '../lib/index.js';
import type { Emulator } from '../lib/emulator/index.js';
import { consoleLogger } from './console-logger.js';
import { createApp } from './create-app.js';
import { demoMembers, startDemoPlatform } from './demo-platform.js';
import { loadConfig } from './load-config.js';
import type { AppSettings, PlatformSettings } from './load-config.js';
import { platformBanner } from './platform-banner.js';
import { quickStartText } from './quick-start.js';
import { attachRealtime, type Realtime } from './realtime.js';
import { warmUp } from './warm-up.js';
import { installShutdown } from './shutdown.js';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { createRedisFleet } from '../lib/redis/index.js';
import type { RedisFleet } from '../lib/redis/index.js';
import { describeRedisLocation, loadFleetSettings, redisTarget } from './fleet-config.js';
import type { RedisLocation } from './fleet-config.js';
import { attachRedisAdapter } from './socket-io-redis.js';
import { loadMetricsSettings } from './metrics-config.js';
import type { MetricsSettings } from './metrics-config.js';
import { metricsApp } from './routes/metrics.js';

const logger = consoleLogger();
// The client's lines share the app's logger, so one fault seen by both prints once; its info
// lines (an API token issued or renewed, the circuit's probe results) are the ones operators
// wait for after an outage.
const clientLogger = { ...logger, debug: () => {} };
const out = (line: string): void => void process.stdout.write(`${line}\n`);

function fail(message: string): never {
  process.stderr.write(`example-app: ${message}\n`);
  process.exit(1);
}

function listen(server: Server, port: number, host: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function printQuickStart(emulator: Emulator, platform: PlatformSettings, appUrl: string, admins: Set<string>): void {
  const demo = demoMembers(platform.gameId);
  const token = (memberNo: string): string => emulator.login(memberNo, platform.gameId).access_token;
  out(quickStartText({
    appUrl,
    emulatorUrl: emulator.url,
    gameId: platform.gameId,
    adminIsAllowed: admins.has(demo.admin.memberNo),
    members: {
      admin: { memberNo: demo.admin.memberNo, token: token(demo.admin.memberNo) },
      player: { ...demo.player, token: token(demo.player.memberNo) },
      noGuid: { memberNo: demo.noGuid.memberNo, token: token(demo.noGuid.memberNo) },
      unregisteredDevice: { memberNo: demo.unregisteredDevice.memberNo, token: token(demo.unregisteredDevice.memberNo) },
    },
  }));
}

async function main(): Promise<void> {
  let settings: AppSettings;
  let metricsSettings: MetricsSettings;
  try {
    settings = loadConfig(process.env);
    metricsSettings = loadMetricsSettings(process.env);
  } catch (err) {
    fail((err as Error).message);
  }
  const demo = settings.platform === null ? await startDemoPlatform(settings.port, settings.webCookieName) : null;
  const platform = demo?.platform ?? settings.platform!;
  let client: PlatformClient;
  let fleet: RedisFleet | undefined;
  let redisLocation: RedisLocation | null = null;
  let closeSocketIoAdapter = async (): Promise<void> => {};
  try {
    const shared = loadFleetSettings(process.env, platform.gameId, resolvePlatformConfig(platform).environment);
    // REDIS_URL, REDIS_CLUSTER_URLS or REDIS_SENTINELS: the verification cache (when
    // VERIFY_CACHE_TTL_MS > 0) and revocations are shared by every instance.
    redisLocation = shared.redis;
    fleet = redisLocation === null ? undefined : createRedisFleet({ ...redisTarget(redisLocation), prefix: shared.redisPrefix, logger: clientLogger });
    client = new PlatformClient({
      ...platform,
      logger: clientLogger,
      // PLATFORM_OUTAGE_GRACE_MS: tokens verified within it are still served while the platform is down (0: off).
      ...(settings.outageGraceMs > 0 ? { outageGraceMs: settings.outageGraceMs } : {}),
      ...(shared.verifyCacheTtlMs > 0 ? { cache: { ttlMs: shared.verifyCacheTtlMs } } : {}),
      ...(fleet === undefined ? {} : { store: fleet.store, revocations: fleet.revocations }),
    });
    if (redisLocation !== null) out(`Redis: ${describeRedisLocation(redisLocation)} (prefix ${shared.redisPrefix}); verification cache ${shared.verifyCacheTtlMs > 0 ? `${shared.verifyCacheTtlMs} ms, shared` : 'off'}`);
  } catch (err) {
    await fleet?.close();
    await demo?.emulator.close();
    fail((err as Error).message);
  }
  let ready = false; // /healthz answers 503 until the warm-up below is done
  let stopping = false; // /readyz answers 503 from the first SIGTERM
  // Collected only when someone can read them (METRICS_TOKEN or METRICS_PORT): the collector
  // listens on the package's channels, which puts every verification on its traced path.
  const served = metricsSettings.token !== null || metricsSettings.port !== null;
  const metrics = new Registry();
  if (served) collectDefaultMetrics({ register: metrics });
  const admins = new Set(settings.adminMemberNos ?? (demo ? [demoMembers(platform.gameId).admin.memberNo] : []));
  const app = createApp({
    client,
    adminMemberNos: admins,
    webCookieName: settings.webCookieName,
    webLoginUrl: demo ? `${demo.emulator.url}/_emulator/web/login` : settings.webLoginUrl,
    webLogoutUrl: demo ? `${demo.emulator.url}/_emulator/web/logout` : settings.webLogoutUrl,
    logger,
    isReady: () => ready,
    reverifyIntervalMs: settings.reverifyIntervalMs,
    reverifyGraceMs: settings.reverifyGraceMs,
    isShuttingDown: () => stopping,
    ...(served ? { metrics } : {}),
    // METRICS_PORT: /metrics there only; otherwise on the API port behind METRICS_TOKEN, or not at all.
    metricsToken: metricsSettings.port === null ? metricsSettings.token : null,
  });
  const server = createServer(app);
  // Socket.IO (/socket.io/) and WebSocket (/ws) on the API's own port.
  const realtime = attachRealtime(server, app.locals.realtime as Realtime);
  // Socket.IO broadcasts reach every instance through the Redis adapter, on the fleet's Redis;
  // ending a member's or a token's connections goes through the client's revocation bus.
  if (redisLocation !== null) closeSocketIoAdapter = attachRedisAdapter(realtime.io, redisLocation);
  // The emulator's cookie reaches the app only on the same host name: loopback
  // in emulator mode; every interface when a real platform is configured.
  let port: number;
  try {
    port = await listen(server, settings.port, demo ? '127.0.0.1' : undefined);
  } catch (err) {
    await demo?.emulator.close();
    void client.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`port ${settings.port} is already in use: stop the other process or set PORT to a free port (PORT=0 picks one).`);
    if (code === 'EACCES') fail(`port ${settings.port} needs privileges: set PORT to a port above 1023.`);
    fail(`cannot listen on port ${settings.port}: ${(err as Error).message}`);
  }
  const metricsServer = metricsSettings.port === null ? undefined : createServer(metricsApp(metrics, { token: metricsSettings.token }));
  let metricsPort: number | undefined;
  if (metricsServer !== undefined) {
    try {
      metricsPort = await listen(metricsServer, metricsSettings.port!, demo ? '127.0.0.1' : undefined);
    } catch (err) {
      server.close();
      await demo?.emulator.close();
      await client.close();
      fail(`cannot serve /metrics on METRICS_PORT ${metricsSettings.port}: ${(err as Error).message}`);
    }
  }
  installShutdown({
    server,
    budgetMs: client.config.totalTimeoutMs,
    onStopping: () => {
      stopping = true;
    },
    // Live connections hear session:ended shutdown (ws: 1001) and reconnect elsewhere.
    closeLiveConnections: () => realtime.closeAll('shutdown'),
    closeResources: async () => {
      metricsServer?.closeAllConnections();
      metricsServer?.close();
      await client.close();
      await fleet?.close();
      await closeSocketIoAdapter();
      await demo?.emulator.close();
    },
    log: out,
    exit: (code) => process.exit(code),
  });
  const appUrl = `http://127.0.0.1:${port}`;
  out(`passport-game-platform example app on ${appUrl}`);
  if (!demo && settings.platformSources !== undefined) out(platformBanner(platform, settings.platformSources));
  if (admins.size === 0) out('ADMIN_MEMBER_NOS is empty: /admin/members answers 403 to everyone.');
  if (settings.outageGraceMs > 0) out(`Outage grace: ${settings.outageGraceMs} ms (tokens verified within it are served while the platform is down)`);
  if (metricsPort !== undefined) out(`Metrics: http://127.0.0.1:${metricsPort}/metrics${metricsSettings.token === null ? '' : ' (Authorization: Bearer $METRICS_TOKEN)'}`);
  else if (metricsSettings.token !== null) out(`Metrics: ${appUrl}/metrics (Authorization: Bearer $METRICS_TOKEN)`);
  else out('Metrics: off (set METRICS_TOKEN to serve /metrics to that bearer token, or METRICS_PORT to serve it on a port of its own).');
  const warm = await warmUp(client, logger);
  ready = true;
  if (warm === 'misconfigured') {
    out('NOT READY: the platform refused our credentials (PLATFORM_CLIENT_ID / PLATFORM_CLIENT_SECRET / PLATFORM_GAME_ID); /readyz answers 503 and protected routes 500 until they are fixed.');
  } else if (warm === 'unavailable') {
    out('NOT READY yet: the platform could not be reached for an API token; /readyz answers 503 until it can.');
    // Keeps asking (with back-off) so /readyz turns 200 without waiting for a player's request.
    client.ready().catch(() => {});
  }
  if (demo) printQuickStart(demo.emulator, platform, appUrl, admins);
  else out(`Web event page: ${appUrl}/event`);
  out('');
  out(warm === 'ok' ? `Ready: ${appUrl} (Ctrl+C to stop)` : `Listening, NOT READY: ${appUrl} (/readyz answers 503 until the platform accepts us; Ctrl+C to stop)`);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
