// `npx tsx examples/fastify/server.ts`: PORT (default 3001); PLATFORM_* or an embedded emulator.
import { demoBanner, demoPlatform } from '../shared/platform-from-env.js';
import { buildFastifyApp } from './app.js';

const platform = await demoPlatform();
const app = await buildFastifyApp(platform.client);
const url = await app.listen({ port: Number(process.env.PORT ?? 3001), host: '127.0.0.1' });
console.log(demoBanner('Fastify', url, platform.emulator));
const stop = (): void => {
  void app.close().then(() => platform.close()).then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
