import type { Registry } from 'prom-client';
import type { HealthExtras, PlatformClient } from '../lib/index.js';
import type { Logger } from '../lib/types.js';
import { createRealtime, type Realtime } from './realtime.js';

/** What {@link createApp} needs. */
export interface AppConfig {
  /** The one platform client of the process (E2, E3, web tokens). */
  client: PlatformClient;
  /** member_no values allowed on `/admin` routes. */
  adminMemberNos: ReadonlySet<string> | readonly string[];
  /** Name of the web token cookie; default `SUAT`. */
  webCookieName?: string;
  /** The web login page (the emulator's `/_emulator/web/login`, or the platform's); null: none known. */
  webLoginUrl?: string | null;
  /** The web logout page; null: none known. */
  webLogoutUrl?: string | null;
  /** Game ID sent to the login page; default the client's. */
  gameId?: string;
  /** `realm` of `WWW-Authenticate`; default the package's. */
  realm?: string;
  /** Where server faults are logged; default the package's (console). */
  logger?: Logger;
  /** `/healthz` answers 503 until this returns true (the server's start-up is done); default: ready. */
  isReady?: () => boolean;
  /** Live connections (Socket.IO and `/ws`); default: a registry built from the options below. */
  realtime?: Realtime;
  /** `REVERIFY_INTERVAL_MS`: how often live connections' tokens are verified again; default 300000. */
  reverifyIntervalMs?: number;
  /** `REVERIFY_GRACE_MS`: how long an outage may keep connections unverified; default 900000. */
  reverifyGraceMs?: number;
  /** `/readyz` answers 503 `shutting_down` once this returns true (SIGTERM arrived); default: never. */
  isShuttingDown?: () => boolean;
  /** The shared store's state and live connections for `/readyz` and `/metrics`, from their owners; default: none. */
  healthExtras?: () => HealthExtras;
  /** A prom-client registry, fed from the package's diagnostics channels; `/metrics` on the API port serves it only with `metricsToken`. */
  metrics?: Registry;
  /**
   * `METRICS_TOKEN`: `/metrics` on the API port, to `Authorization: Bearer
   * <token>` only. Unset: the API port has no `/metrics` (404): metrics are
   * never served to anonymous clients there (serve them on a port of their
   * own with `metricsApp`).
   */
  metricsToken?: string | null;
}

/** {@link AppConfig} with defaults filled in. */
export interface ResolvedAppConfig {
  client: PlatformClient;
  adminMemberNos: ReadonlySet<string>;
  webCookieName: string;
  webLoginUrl: string | null;
  webLogoutUrl: string | null;
  gameId: string;
  realm: string | undefined;
  logger: Logger | undefined;
  isReady: () => boolean;
  realtime: Realtime;
  isShuttingDown: () => boolean;
  healthExtras: () => HealthExtras;
  metrics: Registry | undefined;
  metricsToken: string | null;
}

export function resolveAppConfig(config: AppConfig): ResolvedAppConfig {
  const resolved = resolveBase(config);
  // The live connections' count comes from the app's own registry unless the caller says otherwise.
  if (config.healthExtras === undefined) resolved.healthExtras = () => ({ liveConnections: resolved.realtime.registry.size });
  return resolved;
}

function resolveBase(config: AppConfig): ResolvedAppConfig {
  if (config === null || typeof config !== 'object' || config.client === undefined) {
    throw new TypeError('createApp: config.client must be a PlatformClient');
  }
  const admins = config.adminMemberNos;
  if (admins === undefined || (typeof admins !== 'object')) {
    throw new TypeError('createApp: config.adminMemberNos must be a Set or an array of member_no strings');
  }
  const webCookieName = config.webCookieName ?? 'SUAT';
  return {
    client: config.client,
    adminMemberNos: new Set(admins),
    webCookieName,
    webLoginUrl: config.webLoginUrl ?? null,
    webLogoutUrl: config.webLogoutUrl ?? null,
    gameId: config.gameId ?? config.client.config.gameId,
    realm: config.realm,
    logger: config.logger,
    isReady: config.isReady ?? (() => true),
    realtime: config.realtime ?? createRealtime({
      client: config.client,
      webCookieName,
      realm: config.realm,
      logger: config.logger,
      reverifyIntervalMs: config.reverifyIntervalMs,
      reverifyGraceMs: config.reverifyGraceMs,
    }),
    isShuttingDown: config.isShuttingDown ?? (() => false),
    healthExtras: config.healthExtras ?? (() => ({})),
    metrics: config.metrics,
    metricsToken: config.metricsToken ?? null,
  };
}
