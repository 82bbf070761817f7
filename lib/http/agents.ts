import http from 'node:http';
import https from 'node:https';

/** Idle keep-alive sockets are closed after this, below Node's 5 s server keep-alive, so we never send on a socket the server is closing. */
export const KEEP_ALIVE_IDLE_MS = 4000;

export interface Agents {
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
}

export function createAgents(maxSockets: number): Agents {
  const options = {
    keepAlive: true,
    keepAliveMsecs: 1000,
    timeout: KEEP_ALIVE_IDLE_MS,
    maxSockets,
    // Every socket a burst opened may stay for the next one: a smaller free
    // pool closes sockets under steady load only to open new ones.
    maxFreeSockets: maxSockets,
    // FIFO hands out the socket idle the longest, so under steady load every
    // pooled socket keeps being used and none reaches the idle timeout only to
    // be reopened at the next peak (LIFO left the bottom of the pool idle).
    scheduling: 'fifo' as const,
  };
  return { httpAgent: new http.Agent(options), httpsAgent: new https.Agent(options) };
}

export function destroyAgents(agents: Agents): void {
  agents.httpAgent.destroy();
  agents.httpsAgent.destroy();
}
