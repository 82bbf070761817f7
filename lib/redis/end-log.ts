import type { CommandRunner } from './redis-commands.js';

/** One entry of the session-end log: its stream id and the message it holds. */
export interface LogEntry {
  id: string;
  text: string;
}

/**
 * Redis's own clock in ms (`TIME`), asked of the node holding `key` (on a
 * Cluster, the log's shard): log entry ids are on it, whatever the instances'
 * clocks say.
 */
export async function serverTimeMs(run: CommandRunner, key: string): Promise<number> {
  const reply = await run(key, true, ['TIME']);
  if (!Array.isArray(reply) || reply.length < 2) throw new Error('unexpected TIME reply');
  const seconds = Number(reply[0]);
  const micros = Number(reply[1]);
  if (!Number.isFinite(seconds) || !Number.isFinite(micros)) throw new Error('unexpected TIME reply');
  return seconds * 1000 + Math.floor(micros / 1000);
}

const ID = /^(\d{1,20})-(\d{1,20})$/;

/** True when stream id `a` comes after `b` (both `ms-seq`). */
export function idAfter(a: string, b: string): boolean {
  const x = ID.exec(a);
  const y = ID.exec(b);
  if (x === null || y === null) return false;
  const [ms1, seq1, ms2, seq2] = [BigInt(x[1]!), BigInt(x[2]!), BigInt(y[1]!), BigInt(y[2]!)];
  return ms1 > ms2 || (ms1 === ms2 && seq1 > seq2);
}

/** The log's entries from `start` (inclusive), oldest first, at most `count`; entries of another shape are skipped. */
export async function readLogEntries(run: CommandRunner, key: string, start: string, count: number): Promise<LogEntry[]> {
  const reply = await run(key, true, ['XRANGE', key, start, '+', 'COUNT', String(count)]);
  if (!Array.isArray(reply)) return [];
  const entries: LogEntry[] = [];
  for (const item of reply) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !Array.isArray(item[1])) continue;
    const fields = item[1] as unknown[];
    const at = fields.indexOf('e');
    const text = at >= 0 && at % 2 === 0 ? fields[at + 1] : undefined;
    if (typeof text === 'string') entries.push({ id: item[0], text });
  }
  return entries;
}

/** Appends `text` to the log (field `e`), trimmed to about `maxEntries`, expiring `windowMs` after this entry. */
export async function appendToLog(run: CommandRunner, key: string, text: string, maxEntries: number, windowMs: number): Promise<void> {
  await Promise.all([
    run(key, false, ['XADD', key, 'MAXLEN', '~', String(maxEntries), '*', 'e', text]),
    run(key, false, ['PEXPIRE', key, String(windowMs)]),
  ]);
}
