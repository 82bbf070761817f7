import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

// The runnable examples as a developer starts them (`npx tsx examples/<name>/server.ts`, no
// configuration: an embedded emulator), asked with the token they print, then stopped with SIGTERM.

const ROOT = process.cwd();
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

function start(script: string, env: Record<string, string> = {}): { child: ChildProcessWithoutNullStreams; ready: Promise<{ url: string; token: string }> } {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PLATFORM_|PORT$|NEST_PLATFORM$)/.test(name)));
  const child = spawn(TSX, [script], { cwd: ROOT, env: { ...base, NODE_OPTIONS: '', PORT: '0', ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  const ready = new Promise<{ url: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} not ready after 60 s\n${out}\n${err}`)), 60_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { err += chunk; });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const curl = /Authorization: Bearer ([\w.~+/=-]+)' (\S+)\/api\/me/.exec(out);
      if (curl && /Ready: /.test(out)) {
        clearTimeout(timer);
        resolve({ token: curl[1]!, url: curl[2]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}\n${out}\n${err}`)));
  });
  return { child, ready };
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode === null ? child.once('exit', (code) => resolve(code)) : resolve(child.exitCode)));
}

describe.each<[string, string, Record<string, string>]>([
  ['Fastify', 'examples/fastify/server.ts', {}],
  ['NestJS on Express', 'examples/nest/server.ts', {}],
  ['NestJS on Fastify', 'examples/nest/server.ts', { NEST_PLATFORM: 'fastify' }],
])('the %s example', (_name, script, env) => {
  it('starts on an embedded emulator, answers its printed token, refuses no token, stops on SIGTERM', async () => {
    const { child, ready } = start(script, env);
    try {
      const { url, token } = await ready;
      const ok = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ member_no: expect.stringMatching(/^\d+$/) });
      const none = await fetch(`${url}/api/me`);
      expect(none.status).toBe(401);
      expect(none.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
