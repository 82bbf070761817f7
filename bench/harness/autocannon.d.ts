// The part of autocannon 8's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called before each request is built; `context` lives until the `requests` list wraps. */
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request | null | undefined;
    }
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Total requests; overrides `duration`. */
      amount?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      requests?: Request[];
      /** Requests per second across all connections (open loop below capacity). */
      overallRate?: number;
    }
    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      totalCompletedRequests: number;
      statusCodeStats: Record<string, { count: number }>;
      /** `sent`: requests written, the unanswered ones at the end of a timed run included. */
      requests: { sent: number };
    }
    interface Instance extends EventEmitter {
      stop(): void;
    }
  }

  function autocannon(opts: autocannon.Options, cb: (err: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export = autocannon;
}
