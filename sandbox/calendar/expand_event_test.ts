import assert from "node:assert/strict";
import { occurrencesOf, parseRule } from "./expand_event.ts";
import type { CalendarEvent } from "../core/seed_data.ts";

const MONDAY = Date.parse("2026-03-02T10:00:00Z") / 1000;
const DAY = 86_400;

function series(recurrence: string): CalendarEvent {
  return {
    event_id: "abc_0",
    summary: "s",
    description: "",
    start_time: { timestamp: String(MONDAY) },
    end_time: { timestamp: String(MONDAY + 1800) },
    status: "confirmed",
    free_busy_status: "busy",
    self_rsvp_status: "accept",
    recurrence,
  };
}

Deno.test("occurrencesOf() expands weekly BYDAY series with instance ids", () => {
  const out = occurrencesOf(series("FREQ=WEEKLY;BYDAY=MO,WE"), MONDAY, MONDAY + 14 * DAY);
  assert.deepEqual(out.map((o) => o.id), [0, 2, 7, 9].map((d) => `abc_${MONDAY + d * DAY}`));
  assert.ok(out.every((o) => o.event.event_id === "abc_0"));
  assert.deepEqual(out.map((o) => o.originalStart), [0, 2, 7, 9].map((d) => MONDAY + d * DAY));
});

Deno.test("occurrencesOf() honours COUNT, UNTIL, INTERVAL and exceptions", () => {
  assert.equal(occurrencesOf(series("FREQ=DAILY;COUNT=3"), 0, MONDAY + 30 * DAY).length, 3);
  assert.equal(occurrencesOf(series("FREQ=DAILY;INTERVAL=2"), MONDAY, MONDAY + 10 * DAY).length, 5);
  assert.equal(
    occurrencesOf(series("FREQ=DAILY;UNTIL=20260304T235959Z"), 0, MONDAY + 30 * DAY).length,
    3,
  );
  const event = series("FREQ=DAILY;COUNT=3");
  event.exceptions = { [String(MONDAY + DAY)]: { status: "cancelled" } };
  const [, second] = occurrencesOf(event, 0, MONDAY + 30 * DAY);
  assert.equal(second.override?.status, "cancelled");
  // COUNT counts from the series start even when the window starts later.
  assert.equal(
    occurrencesOf(series("FREQ=DAILY;COUNT=3"), MONDAY + DAY, MONDAY + 30 * DAY).length,
    2,
  );
});

Deno.test("occurrencesOf() returns an overlapping one-off event as is", () => {
  const event = { ...series(""), recurrence: undefined };
  assert.equal(occurrencesOf(event, MONDAY + 1799, MONDAY + 2000).length, 1);
  assert.equal(occurrencesOf(event, MONDAY + 1800, MONDAY + 2000).length, 0);
});

Deno.test("parseRule() rejects unsupported rules", () => {
  assert.throws(() => parseRule("FREQ=MONTHLY"), /FREQ must be DAILY or WEEKLY/);
  assert.throws(() => parseRule("FREQ=WEEKLY;BYDAY=XX"), /bad BYDAY/);
});
