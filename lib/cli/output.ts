import type { CliErrorInfo, DescribedError } from './cli-errors.js';
import type { ExitCodeValue } from './exit-codes.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { startProgress } from './progress.js';
import type { StopProgress } from './progress.js';

/** How a command's results are written. */
export interface OutputOptions {
  /** One JSON object on stdout instead of human lines. */
  json: boolean;
  /** Stacks of unexpected errors and the client's call events on stderr. */
  debug: boolean;
}

/** One line of `doctor`: passed or failed, with the fix in words when failed. */
export interface CheckLine {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

const REDACTED = '[redacted]';
// Shorter values could match ordinary words; secrets and tokens are longer.
const MIN_SECRET_LENGTH = 6;

/**
 * Writes a command's result as human lines (default) or as one JSON object
 * (`--json`): `{ "ok": true, ... }` or `{ "ok": false, "error": { kind, code,
 * action, message }, ... }`. Every write is scrubbed of the secrets
 * registered with {@link Output.addSecret}, a last line of defence behind
 * printing fingerprints only.
 */
export class Output {
  private readonly secrets = new Set<string>();

  private readonly io: CliIo;
  readonly options: OutputOptions;

  constructor(
    io: CliIo,
    options: OutputOptions,
  ) {
    this.io = io;
    this.options = options;
  }

  /** True in `--json` mode. */
  get json(): boolean {
    return this.options.json;
  }

  /** Registers a value that must never be written (client secret, tokens). */
  addSecret(value: string | undefined): void {
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH) this.secrets.add(value);
  }

  /** Human mode: a line on stdout. JSON mode: nothing. */
  line(text: string): void {
    if (!this.json) this.writeOut(`${text}\n`);
  }

  /** Human mode: a `✓`/`✗` line on stdout, the fix indented below a failure. */
  check(check: CheckLine): void {
    if (this.json) return;
    const mark = check.ok ? '✓' : '✗';
    this.writeOut(`${mark} ${check.name}: ${check.detail}\n`);
    if (!check.ok && check.fix) this.writeOut(`  Fix: ${check.fix}\n`);
  }

  /** `--debug` only: a diagnostic line on stderr. */
  debug(text: string): void {
    if (this.options.debug) this.writeErr(`[debug] ${text}\n`);
  }

  /** Human mode: a note on stderr (usage hints, warnings). */
  note(text: string): void {
    if (!this.json) this.writeErr(`${text}\n`);
  }

  /** Shows progress on stderr while waiting on the network. */
  progress(label: string): StopProgress {
    return startProgress(this.io.stderr, label, !this.json);
  }

  /** Finishes a successful command: JSON mode writes `{ ok: true, ...data }`. */
  succeed(data: Record<string, unknown>): ExitCodeValue {
    if (this.json) this.writeJson({ ok: true, ...data });
    return ExitCode.OK;
  }

  /**
   * Finishes a failed command. JSON mode writes `{ ok: false, ...data, error }`
   * on stdout; human mode writes `heading` (or the message) after a `✗`, then
   * the message, code and client action, on stderr. `humanText: false` skips
   * the human lines (doctor has shown the failure in its check lines).
   */
  fail(described: DescribedError, data: Record<string, unknown> = {}, heading?: string, humanText = true): ExitCodeValue {
    if (this.json) {
      this.writeJson({ ok: false, ...data, error: described.info });
    } else if (humanText) {
      this.writeErr(humanError(described.info, heading));
    }
    return described.exitCode;
  }

  /** Raw text on stdout (help). */
  writeOut(text: string): void {
    this.io.stdout.write(this.redact(text));
  }

  /** Raw text on stderr. */
  writeErr(text: string): void {
    this.io.stderr.write(this.redact(text));
  }

  private writeJson(value: Record<string, unknown>): void {
    this.writeOut(`${JSON.stringify(value)}\n`);
  }

  private redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    return out;
  }
}

function humanError(info: CliErrorInfo, heading?: string): string {
  const facts: string[] = [];
  if (info.code !== null) facts.push(`platform code ${info.code}`);
  facts.push(`kind ${info.kind}`);
  if (info.action !== 'none') facts.push(`client action: ${info.action}`);
  const lines = heading === undefined ? [`✗ ${info.message}`] : [`✗ ${heading}`, `  ${info.message}`];
  // A usage error's kind adds nothing; the hint to --help follows it.
  if (info.kind !== 'usage') lines.push(`  (${facts.join('; ')})`);
  return `${lines.join('\n')}\n`;
}
