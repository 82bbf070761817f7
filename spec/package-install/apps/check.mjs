// Shared by the three apps: a valid token, a 46217 and no token, over real
// HTTP; prints one JSON line with the statuses and which frameworks are installed.
import { existsSync } from 'node:fs';

export async function check(base, emulator, members) {
  const get = async (token) => {
    const res = await fetch(`${base}/api/me`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
  };
  const installed = Object.fromEntries(['express', 'passport', '@nestjs/core', 'fastify'].map((name) => [name, existsSync(`node_modules/${name}`)]));
  const result = {
    valid: await get(emulator.login(members.player).access_token),
    device: await get(emulator.login(members.unregisteredDevice).access_token),
    none: await get(undefined),
    installed,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
