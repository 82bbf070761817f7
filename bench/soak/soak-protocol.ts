/** What the soak's app process reports over IPC (`{ op: 'stats', gc? }`). */
export interface AppStats {
  rssBytes: number;
  heapUsedBytes: number;
  /** Memory of Buffers and other objects outside the JS heap (`process.memoryUsage().external`). */
  externalBytes: number;
  unhandledRejections: number;
  uncaughtExceptions: number;
  /** `'call'` events by `endpoint:outcome`. */
  calls: Record<string, number>;
  /** Circuit breaker transitions, `previous->state`, in order. */
  circuit: string[];
  /** Outcomes of API-token probes after a run of 40000 answers across distinct tokens. */
  probes: string[];
  logLines: { debug: number; info: number; warn: number; error: number };
  /** The last 20 info/warn/error lines (messages only: never a secret). */
  lastLogLines: string[];
}
