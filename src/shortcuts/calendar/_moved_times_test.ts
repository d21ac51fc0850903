import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import type { TimeInput } from "../../time/mod.ts";
import { movedTimes, oneTimeOf } from "./_moved_times.ts";

const day = (date: string, param = "--start"): TimeInput => ({
  kind: "date",
  date,
  text: date,
  param,
});
const ALL_DAY = { start_time: { date: "2026-11-25" }, end_time: { date: "2026-11-28" } };
// 2026-03-07 09:00 to 10:30 in New York, the day before clocks go forward.
const TIMED = {
  start_time: { timestamp: String(Date.parse("2026-03-07T14:00:00Z") / 1000) },
  end_time: { timestamp: String(Date.parse("2026-03-07T15:30:00Z") / 1000) },
};

Deno.test("movedTimes() keeps an all-day event's number of days on a moved start", () => {
  // Three days (25 to 27), Lark's end date exclusive.
  assert.deepEqual(movedTimes(ALL_DAY, { start: day("2026-12-30") }, "UTC"), {
    start_time: { date: "2026-12-30" },
    end_time: { date: "2027-01-02" },
  });
});

Deno.test("movedTimes() keeps a timed event's length in elapsed time across a DST change", () => {
  const start: TimeInput = {
    kind: "instant",
    epochMs: Date.parse("2026-03-08T13:00:00Z"),
    text: "sunday 9am",
    param: "--start",
  };
  const zone = "America/New_York";
  assert.deepEqual(movedTimes(TIMED, { start }, zone), {
    start_time: { timestamp: String(Date.parse("2026-03-08T13:00:00Z") / 1000), timezone: zone },
    end_time: { timestamp: String(Date.parse("2026-03-08T14:30:00Z") / 1000), timezone: zone },
  });
});

Deno.test("movedTimes() refuses a time of day for an all-day event, and unreadable times", () => {
  const start: TimeInput = { kind: "instant", epochMs: 0, text: "3pm", param: "--start" };
  assert.throws(
    () => movedTimes(ALL_DAY, { start }, "UTC"),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--start" && /all-day/.test(e.message),
  );
  assert.throws(
    () => movedTimes({ start_time: {} }, { end: day("2026-12-01", "--end") }, "UTC"),
    (e: unknown) => e instanceof ValidationError && e.param === "--end",
  );
});

Deno.test("oneTimeOf() names the one time given, and nothing when both or neither are", () => {
  assert.deepEqual(oneTimeOf({ start: day("2026-12-01") }), { start: day("2026-12-01") });
  assert.equal(oneTimeOf({}), undefined);
  assert.equal(oneTimeOf({ start: day("2026-12-01"), end: day("2026-12-02") }), undefined);
});
