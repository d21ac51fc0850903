import assert from "node:assert/strict";
import { addDays, allDayEndDate, allDayLastDay, isCalendarDate } from "./all_day.ts";

Deno.test("isCalendarDate() accepts only real YYYY-MM-DD days", () => {
  assert.ok(isCalendarDate("2026-03-12"));
  assert.ok(isCalendarDate("2028-02-29"));
  for (const text of ["2026-02-29", "2026-13-01", "2026-3-12", "2026-03-12T00:00", "", "today"]) {
    assert.equal(isCalendarDate(text), false, text);
  }
});

Deno.test("addDays() crosses months, years and leap days", () => {
  assert.equal(addDays("2026-02-28", 1), "2026-03-01");
  assert.equal(addDays("2028-02-28", 1), "2028-02-29");
  assert.equal(addDays("2026-12-31", 1), "2027-01-01");
  assert.equal(addDays("2026-01-01", -1), "2025-12-31");
  assert.equal(addDays("2026-03-08", 0), "2026-03-08");
});

Deno.test("allDayLastDay() turns Lark's exclusive end date into the real last day", () => {
  assert.equal(allDayLastDay("2026-03-13"), "2026-03-12");
  assert.equal(allDayLastDay("2026-03-01"), "2026-02-28");
  assert.equal(allDayLastDay("2026-03-15", "2026-03-12"), "2026-03-14");
  // A malformed event whose end is not after its start lasts its start day.
  assert.equal(allDayLastDay("2026-03-12", "2026-03-12"), "2026-03-12");
  assert.equal(allDayLastDay("2026-03-10", "2026-03-12"), "2026-03-12");
});

Deno.test("allDayEndDate() turns the real last day into Lark's exclusive end date", () => {
  assert.equal(allDayEndDate("2026-03-12"), "2026-03-13");
  assert.equal(allDayEndDate("2026-12-31"), "2027-01-01");
  assert.equal(allDayLastDay(allDayEndDate("2028-02-29")), "2028-02-29");
});
