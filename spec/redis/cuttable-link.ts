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
  heal(): void;
  close(): Promise<void>;
}

export async function cuttableLink(redisUrl: string): Promise<CuttableLink> {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let open = true;
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
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    heal() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => {
      open = false;
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
