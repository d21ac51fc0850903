/**
 * The one shape of "this value is wrong" errors in `src/time/`.
 *
 * @module
 */

import { ValidationError } from "../errors/hark_error.ts";

/** Where a value came from, for error messages. */
export interface ValueSource {
  /** The flag the value belongs to, such as `--start`; it becomes `ValidationError.param`. */
  param: string;
  /**
   * Where the value was read when not from the flag itself (`HARK_CALENDAR_START`, `--input`);
   * shown after the flag. Default: the flag.
   */
  source?: string;
}

/**
 * A {@link ValidationError} that quotes the value as typed and names the flag:
 * `Invalid value "2026-13-01" for --start: expected …`.
 *
 * @param text the value as typed
 * @param where the flag and the source
 * @param problem what is wrong, or what was expected (`expected a duration such as 30m`)
 * @param suggestion how to fix it
 */
export function invalidValue(
  text: string,
  where: ValueSource,
  problem: string,
  suggestion?: string,
): ValidationError {
  const from = where.source === undefined || where.source === where.param
    ? where.param
    : `${where.param} (from ${where.source})`;
  return new ValidationError(`Invalid value ${JSON.stringify(text)} for ${from}: ${problem}`, {
    param: where.param,
    suggestion,
  });
}

/**
 * A {@link ValidationError} for an end that does not come after its start, quoting both as typed:
 * `Invalid time range: --end "2026-03-01" is not after --start "2026-03-12"`.
 *
 * @param start the typed start
 * @param end the typed end; its flag becomes `ValidationError.param`
 * @param relation how the end relates to the start: `not after`, `before`
 */
export function invalidRange(
  start: { text: string; param: string },
  end: { text: string; param: string },
  relation: string,
): ValidationError {
  return new ValidationError(
    `Invalid time range: ${end.param} ${JSON.stringify(end.text)} is ${relation} ` +
      `${start.param} ${JSON.stringify(start.text)}`,
    { param: end.param, suggestion: `Set ${end.param} later than ${start.text}` },
  );
}
