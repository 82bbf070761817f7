import { spawn } from 'node:child_process';

// `npm start` as a container's main process: SIGTERM to npm must reach the
// app (graceful shutdown), not leave it running as an orphan with the port open.

const READY = /Ready: (http:\/\/127\.0\.0\.1:\d+)/;

describe('npm start', () => {
  it('passes SIGTERM to the app, which shuts down and frees its port', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PLATFORM_|REDIS_URL$|PORT$|NODE_OPTIONS$)/.test(name)));
    const npm = spawn('npm', ['start', '--silent'], { env: { ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      npm.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = READY.exec(out);
        if (match) resolve(match[1]!);
      });
      npm.on('exit', () => reject(new Error(`npm start exited before it was ready:\n${out}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('SIGTERM: shutting down');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 60_000);
});
