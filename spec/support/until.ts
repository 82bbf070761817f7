/**
 * Resolves once `condition()` holds, checking after each turn of the event
 * loop (an event to wait for, not a guessed delay); rejects after `timeoutMs`.
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'the condition'): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
