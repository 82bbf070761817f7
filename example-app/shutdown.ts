import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** What a graceful shutdown stops, in order. */
export interface ShutdownSteps {
  server: Server;
  /** Longest a request in flight may still take: the platform budget (15 s by default). */
  budgetMs: number;
  /** Ends live connections (`session:ended` `shutdown`, ws 1001); the real-time registry's `closeAll`. */
  closeLiveConnections?: () => void;
  /** Called at the first signal, before anything stops (readiness turns 503). */
  onStopping?: () => void;
  /** Closes the platform client and the rest, once no request is left. */
  closeResources: () => Promise<void>;
  log: (line: string) => void;
  exit: (code: number) => void;
}

/** Beyond the budget: the time a 503 takes to be written. */
export const SHUTDOWN_MARGIN_MS = 2000;

/**
 * SIGTERM/SIGINT: stop accepting connections, end live connections, let each
 * request in flight end with its answer (keep-alive connections are closed
 * after their response), close the client, exit 0. Connections still open
 * after the budget plus a margin are cut, upgraded sockets included (a request
 * cannot legitimately take that long). A second signal exits at once (code 1).
 */
export function installShutdown(steps: ShutdownSteps): void {
  const { server } = steps;
  let stopping = false;
  // Connections are tracked, not requests: a keep-alive connection carries many requests, and a
  // Set written and emptied on every request makes each young-generation garbage collection of a
  // loaded server several times longer (its p99 about 1.5 times as high). At the signal, the response a
  // connection is writing is its `_httpMessage`, as Node's own server and http-terminator read it.
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // closeAllConnections() does not reach upgraded sockets: they are cut here at the deadline.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (_req, socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });
  const closeIdle = (): void => server.closeIdleConnections();
  // After the signal: a keep-alive connection is closed once the response it carries has ended.
  const closeIdleAfter = (res: ServerResponse): void => {
    res.once('close', () => setImmediate(closeIdle));
  };
  server.on('request', (_req, res: ServerResponse) => {
    if (!stopping) return;
    // A keep-alive client must not send its next request on a socket about to close.
    res.setHeader('Connection', 'close');
    closeIdleAfter(res);
  });
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      steps.log(`${signal} again: exiting now`);
      steps.exit(1);
      return;
    }
    stopping = true;
    for (const socket of connections) {
      const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (res === undefined || res === null) continue; // idle, or upgraded: closed or cut below
      if (!res.headersSent) res.setHeader('Connection', 'close');
      closeIdleAfter(res);
    }
    steps.onStopping?.();
    steps.log(`${signal}: shutting down (requests in flight have up to ${Math.round((steps.budgetMs + SHUTDOWN_MARGIN_MS) / 1000)} s)`);
    const force = setTimeout(() => {
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
    }, steps.budgetMs + SHUTDOWN_MARGIN_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      void steps.closeResources().catch(() => {}).finally(() => steps.exit(0));
    });
    server.closeIdleConnections();
    try {
      steps.closeLiveConnections?.();
    } catch (error) {
      steps.log(`closing live connections failed: ${(error as Error).message}`);
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
