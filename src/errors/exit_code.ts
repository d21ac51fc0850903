/**
 * Process exit codes, as the spec's table gives them.
 *
 * @module
 */

/** Exit codes of hark. */
export const ExitCode = {
  /** Success. */
  Success: 0,
  /** API or general error: permission, not found, conflict, rate limit. */
  General: 1,
  /** Argument validation failure. */
  Validation: 2,
  /** Authentication failure: token invalid or expired. */
  Auth: 3,
  /** Network error: timeout, DNS failure. */
  Network: 4,
  /** Internal error: a bug in hark. */
  Internal: 5,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCode = typeof ExitCode[keyof typeof ExitCode];
