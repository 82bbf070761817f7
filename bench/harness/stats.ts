/** Pure statistics helpers of the bench. */

/** Median of finite values; NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (0-100, nearest rank) of ascending values; NaN for none. */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * n);
  return sortedAscending[Math.min(n, Math.max(1, rank)) - 1]!;
}

/** a / b, NaN when b is 0 or either is not finite. */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : Number.NaN;
}

/** (after - before) / before, NaN when before is 0. */
export function growth(before: number, after: number): number {
  return ratio(after - before, before);
}

/** Rounds to `digits` decimals (NaN stays NaN; JSON then writes null). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Round r runs the items rotated by r: A B C D, B C D A, ... (no case always first or last). */
export function rotation<T>(items: readonly T[], r: number): T[] {
  if (items.length === 0) return [];
  const k = r % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
