/**
 * The waiting line of `auth login`: the spinner itself lives in `src/output/spinner.ts` and is
 * re-exported here for the callers that import it from this file.
 *
 * @module
 */

export { createSpinner, type Spinner } from "../output/spinner.ts";

/**
 * Formats a duration as `m:ss`.
 *
 * @param ms milliseconds
 */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
