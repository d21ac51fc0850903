/**
 * `--rrule`: the recurrence rule of a recurring event, checked before anything is sent. Lark takes
 * an RFC 5545 rule without its `RRULE:` prefix in the event's `recurrence` (SDK types,
 * calendar.v4.calendarEvent.create: `recurrence?: string`; example `FREQ=DAILY;INTERVAL=1`), and
 * `event_rrule` in `freebusy/room_find` and `freebusy/suggestion` (lark-cli
 * `calendar_room_find.go`, `calendar_suggestion.go`).
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { hasSpaceControlOrFormat } from "../../text_classes.ts";

const FREQUENCIES = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"];
const WEEKDAY = "(?:MO|TU|WE|TH|FR|SA|SU)";
const INTEGER = /^[1-9]\d{0,3}$/;
const SIGNED_LIST = (max: number) => (value: string) =>
  value.split(",").every((v) => {
    const n = Number(v);
    return /^[+-]?\d{1,3}$/.test(v) && n !== 0 && Math.abs(n) <= max;
  });

/** Each part Lark's rules use, and how its value is checked. */
const PARTS: Record<string, (value: string) => boolean> = {
  FREQ: (v) => FREQUENCIES.includes(v),
  INTERVAL: (v) => INTEGER.test(v),
  COUNT: (v) => INTEGER.test(v),
  UNTIL: (v) =>
    /^\d{8}(T\d{6}Z?)?$/.test(v) && !Number.isNaN(Date.parse(
      `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`,
    )),
  BYDAY: (v) =>
    v.split(",").every((d) => new RegExp(`^[+-]?(?:[1-9]|[1-4]\\d|5[0-3])?${WEEKDAY}$`).test(d)),
  BYMONTHDAY: SIGNED_LIST(31),
  BYMONTH: (v) => v.split(",").every((m) => /^\d{1,2}$/.test(m) && +m >= 1 && +m <= 12),
  BYSETPOS: SIGNED_LIST(366),
  WKST: (v) => new RegExp(`^${WEEKDAY}$`).test(v),
};

/**
 * The rule of `--rrule`, without an `RRULE:` prefix: `FREQ` first or anywhere, each part once,
 * `COUNT` or `UNTIL` but not both.
 *
 * @param text the flag's value
 * @param flag the flag, for the error
 * @returns the rule as Lark takes it
 * @throws {ValidationError} naming the flag and the part that is wrong
 */
export function checkRrule(text: string, flag = "--rrule"): string {
  const rule = text.trim().replace(/^RRULE:/i, "");
  const fail = (why: string) =>
    new ValidationError(`Invalid value ${JSON.stringify(text)} for ${flag}: ${why}`, {
      param: flag,
      suggestion: "Give an RFC 5545 rule such as FREQ=WEEKLY;BYDAY=MO,WE or " +
        "FREQ=DAILY;INTERVAL=2;COUNT=10 (FREQ is DAILY, WEEKLY, MONTHLY or YEARLY)",
    });
  if (rule === "" || hasSpaceControlOrFormat(rule)) {
    throw fail("expected a rule without spaces");
  }
  const seen = new Set<string>();
  for (const part of rule.split(";")) {
    const [name, value, extra] = part.split("=");
    const check = PARTS[name?.toUpperCase() ?? ""];
    if (check === undefined || value === undefined || extra !== undefined) {
      throw fail(`"${part}" is not a rule part (NAME=value) Lark takes`);
    }
    if (seen.has(name.toUpperCase())) throw fail(`${name} is given twice`);
    seen.add(name.toUpperCase());
    if (!check(value.toUpperCase())) throw fail(`${name}=${value} is not a valid ${name}`);
  }
  if (!seen.has("FREQ")) throw fail("FREQ is missing");
  if (seen.has("COUNT") && seen.has("UNTIL")) throw fail("COUNT and UNTIL cannot both be given");
  return rule.toUpperCase();
}
