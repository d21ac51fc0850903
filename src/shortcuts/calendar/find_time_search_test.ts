import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { at, inputOf } from "../../../tests/support/fake_client.ts";
import { bookingKey, searchOf, windowOf } from "./find_time_search.ts";

// Monday 2026-11-23 08:00 UTC.
const NOW = Date.UTC(2026, 10, 23, 8);
const values = (extra = {}) => ({
  attendees: "ou_1,ou_2",
  duration: "30m",
  "working-hours": "09:00-18:00",
  limit: 3,
  "include-weekends": false,
  summary: "Meeting",
  "calendar-id": "primary",
  ...extra,
});
const input = (extra = {}) => inputOf(values(extra), { ctx: createTestContext({ now: NOW }) });

Deno.test("the default window runs from now to the end of the 5th working day", () => {
  assert.deepEqual(windowOf(input()), { start: NOW, end: Date.UTC(2026, 10, 28) });
  assert.deepEqual(windowOf(input({ "include-weekends": true })), {
    start: NOW,
    end: Date.UTC(2026, 10, 28),
  });
  const from = Date.UTC(2026, 10, 27, 12);
  // Friday + 4 working days: Thursday of the next week.
  assert.deepEqual(windowOf(input({ start: at(from) })), {
    start: from,
    end: Date.UTC(2026, 11, 4),
  });
  assert.throws(
    () => windowOf(input({ end: at(NOW - 1, "--end") })),
    (e: unknown) => e instanceof ValidationError && e.param === "--end",
  );
});

Deno.test("searchOf() checks the duration, the working hours and the limit", () => {
  assert.equal(searchOf(input()).minutes, 30);
  for (
    const [extra, flag] of [
      [{ duration: "half an hour" }, "--duration"],
      [{ "working-hours": "9-5" }, "--working-hours"],
      [{ limit: 0 }, "--limit"],
      [{ attendees: "," }, "--attendees"],
    ] as const
  ) {
    assert.throws(
      () => searchOf(input(extra)),
      (e: unknown) => e instanceof ValidationError && e.param === flag,
      flag,
    );
  }
});

Deno.test("bookingKey() is the same for the same request, later the same day, and UUID-shaped", () => {
  const a = bookingKey(input(), searchOf(input()));
  // Pinned: a retry by a newer hark still finds the event an older one booked.
  assert.equal(a, "7e5f1bcd-f6a3-3a13-f125-ad9dc654600f");
  const later = inputOf(values({ attendees: "ou_2,ou_1" }), {
    ctx: createTestContext({ now: NOW + 3600_000 }),
  });
  assert.equal(bookingKey(later, searchOf(later)), a);
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.notEqual(bookingKey(input({ summary: "Other" }), searchOf(input())), a);
});

Deno.test("find-time checks each attendee as an id: no format characters, no huge ids", () => {
  for (const attendees of ["ou_1,\u202eou_2", `ou_${"1".repeat(200)}`]) {
    assert.throws(
      () => searchOf(input({ attendees })),
      (e: unknown) => e instanceof ValidationError && e.param === "--attendees",
    );
  }
});
