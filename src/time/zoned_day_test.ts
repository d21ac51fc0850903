import assert from "node:assert/strict";
import { dateIn, endOfDay, startOfDay, wallTimeToInstant, weekdayOf } from "./zoned_day.ts";

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

Deno.test("startOfDay() is local midnight of the zone", () => {
  assert.equal(startOfDay("2026-03-12", "Asia/Shanghai"), at("2026-03-11T16:00:00Z"));
  assert.equal(startOfDay("2026-03-12", "UTC"), at("2026-03-12T00:00:00Z"));
  assert.equal(startOfDay("2026-03-12", "America/Los_Angeles"), at("2026-03-12T07:00:00Z"));
});

Deno.test("endOfDay() is the next midnight, so DST days last 23 and 25 hours", () => {
  assert.equal(endOfDay("2026-03-12", "Asia/Shanghai"), at("2026-03-12T16:00:00Z"));
  const length = (date: string, zone: string) => endOfDay(date, zone) - startOfDay(date, zone);
  assert.equal(length("2026-03-08", "America/New_York"), 23 * HOUR);
  assert.equal(length("2026-11-01", "America/New_York"), 25 * HOUR);
  assert.equal(length("2026-03-29", "Europe/Berlin"), 23 * HOUR);
  assert.equal(length("2026-10-25", "Europe/Berlin"), 25 * HOUR);
  assert.equal(length("2026-03-12", "America/New_York"), 24 * HOUR);
});

Deno.test("startOfDay() is the first moment that exists where the clocks skip midnight", () => {
  // Havana springs forward at 00:00: 2026-03-08 begins at 01:00 (-04:00).
  assert.equal(startOfDay("2026-03-08", "America/Havana"), at("2026-03-08T05:00:00Z"));
  assert.equal(endOfDay("2026-03-07", "America/Havana"), at("2026-03-08T05:00:00Z"));
  // Santiago springs forward at 24:00 on the first Saturday of September.
  assert.equal(startOfDay("2026-09-06", "America/Santiago"), at("2026-09-06T04:00:00Z"));
});

Deno.test("dateIn() gives the day an instant falls on in the zone", () => {
  const instant = at("2026-03-12T20:00:00Z");
  assert.equal(dateIn(instant, "UTC"), "2026-03-12");
  assert.equal(dateIn(instant, "Asia/Shanghai"), "2026-03-13");
  assert.equal(dateIn(instant, "Pacific/Auckland"), "2026-03-13");
  assert.equal(dateIn(instant, "America/Los_Angeles"), "2026-03-12");
});

Deno.test("weekdayOf() numbers days from Monday 1 to Sunday 7", () => {
  assert.equal(weekdayOf("2026-11-23"), 1);
  assert.equal(weekdayOf("2026-11-28"), 6);
  assert.equal(weekdayOf("2026-11-29"), 7);
});

Deno.test("wallTimeToInstant() places a time of day in the zone", () => {
  assert.equal(
    wallTimeToInstant("2026-11-23", 9 * 60, "Asia/Shanghai"),
    at("2026-11-23T01:00:00Z"),
  );
  assert.equal(
    wallTimeToInstant("2026-11-23", 17 * 60 + 45, "Asia/Kathmandu"),
    at("2026-11-23T12:00:00Z"),
  );
  assert.equal(wallTimeToInstant("2026-11-23", 0, "UTC"), at("2026-11-23T00:00:00Z"));
  assert.equal(wallTimeToInstant("2026-11-23", 1440, "UTC"), at("2026-11-24T00:00:00Z"));
});

Deno.test("wallTimeToInstant() gives the moment of the jump for a skipped time", () => {
  // New York jumps from 02:00 EST to 03:00 EDT at 07:00Z.
  assert.equal(
    wallTimeToInstant("2026-03-08", 150, "America/New_York"),
    at("2026-03-08T07:00:00Z"),
  );
  assert.equal(
    wallTimeToInstant("2026-03-08", 120, "America/New_York"),
    at("2026-03-08T07:00:00Z"),
  );
  assert.equal(
    wallTimeToInstant("2026-03-08", 180, "America/New_York"),
    at("2026-03-08T07:00:00Z"),
  );
  assert.equal(
    wallTimeToInstant("2026-03-08", 9 * 60, "America/New_York"),
    at("2026-03-08T13:00:00Z"),
  );
  assert.equal(wallTimeToInstant("2026-03-08", 0, "America/Havana"), at("2026-03-08T05:00:00Z"));
});

Deno.test("wallTimeToInstant() gives the first of a time shown twice", () => {
  // New York falls back from 02:00 EDT to 01:00 EST at 06:00Z: 01:30 happens at 05:30Z and 06:30Z.
  assert.equal(wallTimeToInstant("2026-11-01", 90, "America/New_York"), at("2026-11-01T05:30:00Z"));
  assert.equal(
    wallTimeToInstant("2026-11-01", 9 * 60, "America/New_York"),
    at("2026-11-01T14:00:00Z"),
  );
});

Deno.test("wallTimeToInstant() refuses a minute outside the day", () => {
  assert.throws(() => wallTimeToInstant("2026-11-23", -1, "UTC"), RangeError);
  assert.throws(() => wallTimeToInstant("2026-11-23", 1441, "UTC"), RangeError);
  assert.throws(() => wallTimeToInstant("2026-11-23", 1.5, "UTC"), RangeError);
});
