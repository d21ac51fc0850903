/**
 * Process exit codes: the spec's table (0 to 5), and 75 for an outcome that is not final.
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
  /**
   * Not done yet, try again later: a sign-in waiting for approval when `--wait` ran out. 75 is
   * `EX_TEMPFAIL` of BSD's sysexits.h ("a temporary failure; the user is invited to retry"), far
   * from the spec's 0 to 5 and from the shell's 126 and above (130 is a second Ctrl-C).
   */
  Pending: 75,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCode = typeof ExitCode[keyof typeof ExitCode];

/**
 * What each exit code means, by its name in {@link ExitCode}: the table `hark schema` prints
 * (`exit_codes`), so it cannot miss a code.
 */
export const EXIT_CODE_MEANINGS: { readonly [Name in keyof typeof ExitCode]: string } = {
  Success: "success",
  General: "API or general error: permission, not found, conflict, rate limit, cancelled",
  Validation: "argument validation failure: a flag, a value, a file or a jq expression",
  Auth: "authentication failure: no sign-in, or a token invalid or expired",
  Network: "network error (timeout, DNS failure), or the service unavailable",
  Internal: "internal error: a bug in hark",
  Pending: "not done yet, try again later (a sign-in waiting for approval)",
};
