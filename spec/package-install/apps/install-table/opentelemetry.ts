// The OpenTelemetry row: one verification recorded as spans by the SDK.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { PlatformClient } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { instrumentGamePlatform } from 'passport-game-platform/opentelemetry';

const emulator = await startEmulator();
const exporter = new InMemorySpanExporter();
const stop = instrumentGamePlatform({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const valid = await client.verifyUserToken(emulator.login(DEFAULT_MEMBERS.player).access_token).then(() => 200, () => 0);
process.stdout.write(`${JSON.stringify({ verified: valid === 200, 'spans recorded': exporter.getFinishedSpans().length > 0 })}\n`);
stop();
await client.close();
await emulator.close();
