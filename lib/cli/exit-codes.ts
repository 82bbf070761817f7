/**
 * Exit statuses of the `passport-game-platform` CLI. Stable: scripts may
 * switch on them.
 *
 * | status | meaning |
 * |---|---|
 * | 0 | all is well |
 * | 1 | the platform refused the request (invalid or expired user token, device not registered, bad request), or an unexpected error |
 * | 2 | usage error: unknown command or flag, missing or malformed argument |
 * | 3 | configuration error: missing or invalid settings, 40105, 41002, API token still refused (40101/40103) |
 * | 4 | platform unavailable: unreachable, timed out, 5xx, 50000 |
 * | 5 | not found: `lookup` found no such member |
 */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  CONFIGURATION: 3,
  UNAVAILABLE: 4,
  NOT_FOUND: 5,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit-status table, as printed by `--help`. */
export const EXIT_CODES_HELP = `Exit status:
  0  all is well
  1  the platform refused the request (invalid or expired user token, 46217, bad request) or an unexpected error
  2  usage error (unknown command or flag, missing or malformed argument)
  3  configuration error (missing or invalid settings, 40105, 41002, API token refused)
  4  platform unavailable (unreachable, timed out, 5xx, 50000)
  5  not found (lookup: no such member)`;
