import type { Server, ServerResponse } from 'node:http';
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
  const inFlight = new Set<ServerResponse>();
  // closeAllConnections() does not reach upgraded sockets: they are cut here at the deadline.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (_req, socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });
  // One listener shared by every response, not a closure per request: this runs on every request
  // the server answers.
  const closeIdle = (): void => server.closeIdleConnections();
  function onResponseClose(this: ServerResponse): void {
    inFlight.delete(this);
    if (stopping) setImmediate(closeIdle);
  }
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    // A keep-alive client must not send its next request on a socket about to close.
    if (stopping) res.setHeader('Connection', 'close');
    res.on('close', onResponseClose);
  });
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      steps.log(`${signal} again: exiting now`);
      steps.exit(1);
      return;
    }
    stopping = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
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
