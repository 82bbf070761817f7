import { createConnection, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 in front of one Redis: one instance's own way to
 * it. `cut()` drops every relayed connection and refuses new ones (this
 * instance cannot reach Redis; the others still can); `heal()` lets them
 * through again.
 */
export interface CuttableLink {
  readonly url: string;
  cut(): void;
  /** Drops every byte both ways without closing anything: a link gone silent. */
  freeze(): void;
  heal(): void;
  /** From now on, connections go to `redisUrl` instead (those open now stay where they are: `cut()` them). */
  retarget(redisUrl: string): void;
  close(): Promise<void>;
}

export async function cuttableLink(redisUrl: string): Promise<CuttableLink> {
  let target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let open = true;
  let frozen = false;
  const server: Server = createServer((inbound) => {
    if (!open) {
      inbound.destroy();
      return;
    }
    const outbound = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.on('data', (chunk: Buffer) => void (frozen || outbound.write(chunk)));
    outbound.on('data', (chunk: Buffer) => void (frozen || inbound.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    freeze() {
      frozen = true;
    },
    heal() {
      open = true;
      frozen = false;
    },
    retarget(url: string) {
      target = new URL(url);
    },
    close: () => new Promise<void>((resolve) => {
      open = false;
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
