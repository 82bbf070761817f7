// The example app in its own process for the soak: createApp + one PlatformClient with the
// package's defaults, against PLATFORM_BASE_URL. Reports over IPC (no extra HTTP route):
// memory, unhandled rejections, platform calls, circuit changes, probes and log lines.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../example-app/create-app.js';
import { attachRealtime, type Realtime } from '../../example-app/realtime.js';
import { PlatformClient } from '../../lib/index.js';
import type { Logger } from '../../lib/index.js';
import type { AppStats } from './soak-protocol.js';

const stats: AppStats = {
  rssBytes: 0, heapUsedBytes: 0, externalBytes: 0, unhandledRejections: 0, uncaughtExceptions: 0,
  calls: {}, circuit: [], probes: [], logLines: { debug: 0, info: 0, warn: 0, error: 0 }, lastLogLines: [],
};
process.on('unhandledRejection', () => void (stats.unhandledRejections += 1));
process.on('uncaughtException', (err) => {
  stats.uncaughtExceptions += 1;
  process.stderr.write(`uncaught exception: ${err.name}: ${err.message}\n`);
});

const counting = (level: keyof AppStats['logLines']) => (_obj: object, msg?: string): void => {
  stats.logLines[level] += 1;
  if (level !== 'debug') stats.lastLogLines = [...stats.lastLogLines.slice(-19), `[${level}] ${msg ?? ''}`];
};
const logger: Logger = { debug: counting('debug'), info: counting('info'), warn: counting('warn'), error: counting('error') };

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`soak app: ${name} is not set`);
  return value;
};
const client = new PlatformClient({
  baseUrl: env('PLATFORM_BASE_URL'), clientId: env('PLATFORM_CLIENT_ID'), clientSecret: env('PLATFORM_CLIENT_SECRET'),
  gameId: env('PLATFORM_GAME_ID'), logger,
});
client.on('call', (e) => {
  const key = `${e.endpoint}:${e.outcome}`;
  stats.calls[key] = (stats.calls[key] ?? 0) + 1;
});
client.on('circuit', (e) => stats.circuit.push(`${e.previous}->${e.state}`));
client.on('probe', (e) => stats.probes.push(e.outcome));

const app = createApp({ client, adminMemberNos: [], logger });
const server = createServer(app);
// Socket.IO and /ws as the example app serves them, for the soak's hostile clients.
attachRealtime(server, app.locals.realtime as Realtime);
server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, () => {
  process.stdout.write(`SOAK_READY port=${(server.address() as AddressInfo).port}\n`);
});

process.on('message', (msg: unknown) => {
  if ((msg as { op?: unknown } | null)?.op !== 'stats') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  if ((msg as { gc?: boolean }).gc === true && gc) gc();
  const memory = process.memoryUsage();
  process.send?.({ ...stats, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, externalBytes: memory.external });
});
const stop = (): void => {
  void client.close();
  server.closeAllConnections();
  process.exit(0);
};
process.on('disconnect', stop);
process.once('SIGTERM', stop);
