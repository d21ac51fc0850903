/**
 * Lists of time ranges typed as `start~end,start~end` (`+room-find --slot`, `--exclude` of
 * `+find-time` and `+suggestion`): each end is any time form `--start` takes; a date-only end
 * includes that day.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { type Interval, parseTimeInput, resolveTimeRange } from "../../time/mod.ts";
import type { ShortcutInput } from "../definition.ts";

/** The most ranges one list takes (each room search is one request). */
export const MAX_RANGES = 20;

/**
 * The ranges of a flag's value, in epoch milliseconds, in the order given.
 *
 * @param text the flag's value, such as `2026-12-01 10:00~2026-12-01 11:00`
 * @param flag the flag, for errors
 * @param input the shortcut input (its clock and zone read the times)
 * @throws {ValidationError} naming the flag: a range without one `~`, a time hark cannot read,
 *   an end not after its start, or more than {@link MAX_RANGES} ranges
 */
export function parseTimeRanges(
  text: string,
  flag: string,
  input: Pick<ShortcutInput<unknown>, "ctx" | "timeZone">,
): Interval[] {
  const parts = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const fail = (why: string) =>
    new ValidationError(`Invalid value ${JSON.stringify(text)} for ${flag}: ${why}`, {
      param: flag,
      suggestion: `Give ranges as start~end, comma-separated, such as ${flag} ` +
        "'2026-12-01 10:00~2026-12-01 11:00'",
    });
  if (parts.length === 0) throw fail("expected at least one start~end range");
  if (parts.length > MAX_RANGES) throw fail(`at most ${MAX_RANGES} ranges`);
  const options = { param: flag, now: input.ctx.now(), timeZone: input.timeZone };
  return parts.map((part) => {
    const ends = part.split("~");
    if (ends.length !== 2 || ends[0].trim() === "" || ends[1].trim() === "") {
      throw fail(`"${part}" is not start~end`);
    }
    const start = parseTimeInput(ends[0], options);
    const end = parseTimeInput(ends[1], options);
    return resolveTimeRange(start, end, input.timeZone);
  });
}
