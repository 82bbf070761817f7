import type { CliWritable } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;

/** Stops a progress indicator and clears its line. Safe to call twice. */
export type StopProgress = () => void;

/**
 * Shows that the CLI is waiting on the network: a spinner on `stream` when it
 * is a terminal, else one plain line (or nothing when `plainLines` is false,
 * as in `--json` mode, so scripts' stderr stays quiet).
 */
export function startProgress(stream: CliWritable, label: string, plainLines: boolean): StopProgress {
  if (stream.isTTY !== true) {
    if (plainLines) stream.write(`${label}\n`);
    return () => {};
  }
  let frame = 0;
  const draw = (): void => {
    stream.write(`\r${FRAMES[frame % FRAMES.length]} ${label}`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, FRAME_MS);
  timer.unref();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    stream.write('\r\x1b[K');
  };
}
