import assert from "node:assert/strict";
import type { Interval } from "../../time/mod.ts";
import {
  busyTime,
  defaultWindow,
  explainNoSlot,
  findSlots,
  type FindSlotsOptions,
  type SlotAttendee,
  workingTime,
} from "./find_slots.ts";

const HOUR = 3_600_000;
const NINE_TO_SIX = { startMinute: 9 * 60, endMinute: 18 * 60 };
const at = (iso: string) => Date.parse(iso);
const span = (start: string, end: string): Interval => ({ start: at(start), end: at(end) });
/** Intervals as readable UTC pairs: ["2026-11-23T01:00Z", "2026-11-23T01:30Z"]. */
const utc = (list: Interval[]) =>
  list.map((i) => [i.start, i.end].map((ms) => new Date(ms).toISOString().slice(0, 16) + "Z"));

function person(timeZone: string, busy: SlotAttendee["busy"] = [], extra = {}): SlotAttendee {
  return { timeZone, workingHours: NINE_TO_SIX, busy, ...extra };
}

function find(options: Partial<FindSlotsOptions> & Pick<FindSlotsOptions, "attendees">) {
  return findSlots({
    // Monday 2026-11-23, the whole UTC day; 09:00-18:00 in Shanghai is 01:00-10:00Z.
    window: span("2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z"),
    durationMinutes: 30,
    ...options,
  });
}

Deno.test("findSlots() gives the earliest slots in working hours, one after another", () => {
  const result = find({ attendees: [person("Asia/Shanghai")], limit: 3 });
  assert.deepEqual(utc(result.slots), [
    ["2026-11-23T01:00Z", "2026-11-23T01:30Z"],
    ["2026-11-23T01:30Z", "2026-11-23T02:00Z"],
    ["2026-11-23T02:00Z", "2026-11-23T02:30Z"],
  ]);
  assert.deepEqual(utc(result.free), [["2026-11-23T01:00Z", "2026-11-23T10:00Z"]]);
  assert.equal(result.reason, undefined);
});

Deno.test("findSlots() merges overlapping, touching, nested, repeated, unsorted busy blocks", () => {
  const busy = [
    span("2026-11-23T03:00:00Z", "2026-11-23T03:30:00Z"), // touches the next block
    span("2026-11-23T02:00:00Z", "2026-11-23T03:00:00Z"),
    span("2026-11-23T02:30:00Z", "2026-11-23T02:45:00Z"), // nested
    span("2026-11-23T01:00:00Z", "2026-11-23T01:20:00Z"),
    span("2026-11-23T01:00:00Z", "2026-11-23T01:20:00Z"), // repeated
    span("2026-11-23T05:00:00Z", "2026-11-23T04:00:00Z"), // inverted: ignored
    span("2026-11-23T03:20:00Z", "2026-11-23T04:10:00Z"), // overlaps
  ];
  const result = find({ attendees: [person("Asia/Shanghai", busy)], limit: 3 });
  assert.deepEqual(utc(result.free), [
    ["2026-11-23T01:20Z", "2026-11-23T02:00Z"],
    ["2026-11-23T04:10Z", "2026-11-23T10:00Z"],
  ]);
  assert.deepEqual(utc(result.slots), [
    // Ends exactly when the busy block starts: touching is fine.
    ["2026-11-23T01:30Z", "2026-11-23T02:00Z"],
    ["2026-11-23T04:15Z", "2026-11-23T04:45Z"],
    ["2026-11-23T04:45Z", "2026-11-23T05:15Z"],
  ]);
});

Deno.test("findSlots() starts a slot the moment a busy block ends", () => {
  const busy = [span("2026-11-23T01:00:00Z", "2026-11-23T01:30:00Z")];
  const result = find({ attendees: [person("Asia/Shanghai", busy)], limit: 1 });
  assert.deepEqual(utc(result.slots), [["2026-11-23T01:30Z", "2026-11-23T02:00Z"]]);
});

Deno.test("findSlots() merges the busy blocks of every attendee", () => {
  const result = find({
    attendees: [
      person("Asia/Shanghai", [span("2026-11-23T01:00:00Z", "2026-11-23T02:00:00Z")]),
      person("Asia/Shanghai", [span("2026-11-23T01:45:00Z", "2026-11-23T03:00:00Z")]),
      person("Asia/Tokyo", [span("2026-11-23T03:00:00Z", "2026-11-23T03:10:00Z")]),
    ],
    limit: 1,
  });
  // Tokyo's 09:00 is 00:00Z, so Shanghai's hours bound the day; 03:10 rounds up to 03:15.
  assert.deepEqual(utc(result.slots), [["2026-11-23T03:15Z", "2026-11-23T03:45Z"]]);
});

Deno.test("findSlots() aligns the first slot when the window starts mid-slot", () => {
  const result = find({
    window: { start: at("2026-11-23T01:07:33.123Z"), end: at("2026-11-23T03:00:00Z") },
    attendees: [person("Asia/Shanghai")],
    limit: 2,
  });
  assert.deepEqual(utc(result.slots), [
    ["2026-11-23T01:15Z", "2026-11-23T01:45Z"],
    ["2026-11-23T01:45Z", "2026-11-23T02:15Z"],
  ]);
});

Deno.test("findSlots() rounds starts to the granularity", () => {
  const busy = [span("2026-11-23T01:00:00Z", "2026-11-23T01:20:00Z")];
  const first = (granularityMinutes: number) =>
    utc(
      find({ attendees: [person("Asia/Shanghai", busy)], granularityMinutes, limit: 2 }).slots,
    );
  assert.deepEqual(first(15), [
    ["2026-11-23T01:30Z", "2026-11-23T02:00Z"],
    ["2026-11-23T02:00Z", "2026-11-23T02:30Z"],
  ]);
  assert.deepEqual(first(60), [
    ["2026-11-23T02:00Z", "2026-11-23T02:30Z"],
    ["2026-11-23T03:00Z", "2026-11-23T03:30Z"],
  ]);
  assert.deepEqual(first(1), [
    ["2026-11-23T01:20Z", "2026-11-23T01:50Z"],
    ["2026-11-23T01:50Z", "2026-11-23T02:20Z"],
  ]);
});

Deno.test("findSlots() with a 20-minute meeting rounds each following start up again", () => {
  const result = find({ attendees: [person("Asia/Shanghai")], durationMinutes: 20, limit: 3 });
  assert.deepEqual(utc(result.slots), [
    ["2026-11-23T01:00Z", "2026-11-23T01:20Z"],
    ["2026-11-23T01:30Z", "2026-11-23T01:50Z"],
    ["2026-11-23T02:00Z", "2026-11-23T02:20Z"],
  ]);
});

Deno.test("findSlots() returns at most limit slots, and all there are below it", () => {
  const attendees = [person("Asia/Shanghai")];
  assert.equal(find({ attendees, limit: 1 }).slots.length, 1);
  assert.equal(find({ attendees }).slots.length, 10);
  // 9 working hours hold 18 half-hour slots.
  assert.equal(find({ attendees, limit: 50 }).slots.length, 18);
  assert.equal(find({ attendees, limit: 50, durationMinutes: 9 * 60 }).slots.length, 1);
});

Deno.test("findSlots() says all_busy when no gap is long enough", () => {
  const busy = [
    span("2026-11-23T01:00:00Z", "2026-11-23T03:00:00Z"),
    span("2026-11-23T03:45:00Z", "2026-11-23T06:00:00Z"),
    span("2026-11-23T06:45:00Z", "2026-11-23T10:00:00Z"),
  ];
  const result = find({ attendees: [person("Asia/Shanghai", busy)], durationMinutes: 60 });
  assert.deepEqual(result.slots, []);
  assert.equal(result.reason, "all_busy");
  assert.deepEqual(utc(result.free), [
    ["2026-11-23T03:00Z", "2026-11-23T03:45Z"],
    ["2026-11-23T06:00Z", "2026-11-23T06:45Z"],
  ]);
  // A gap long enough but not once aligned to a quarter hour is no slot either.
  const unaligned = find({
    attendees: [person("Asia/Shanghai", [
      span("2026-11-23T01:00:00Z", "2026-11-23T02:05:00Z"),
      span("2026-11-23T02:40:00Z", "2026-11-23T10:00:00Z"),
    ])],
  });
  assert.equal(unaligned.reason, "all_busy");
});

Deno.test("findSlots() says no_common_working_time for a meeting longer than the workday", () => {
  const result = find({ attendees: [person("Asia/Shanghai")], durationMinutes: 9 * 60 + 15 });
  assert.deepEqual(result.slots, []);
  assert.equal(result.reason, "no_common_working_time");
});

Deno.test("findSlots() says window_too_short when the window cannot hold the meeting", () => {
  const short = (start: string, end: string) =>
    find({ window: span(start, end), attendees: [person("Asia/Shanghai")] }).reason;
  assert.equal(short("2026-11-23T01:00:00Z", "2026-11-23T01:29:00Z"), "window_too_short");
  // 33 minutes, but the first quarter hour leaves only 25.
  assert.equal(short("2026-11-23T01:07:00Z", "2026-11-23T01:40:00Z"), "window_too_short");
  assert.equal(short("2026-11-23T02:00:00Z", "2026-11-23T01:00:00Z"), "window_too_short");
  assert.equal(short("2026-11-23T01:00:00Z", "2026-11-23T01:00:00Z"), "window_too_short");
  // Long enough, but at night in Shanghai.
  assert.equal(short("2026-11-23T12:00:00Z", "2026-11-23T16:00:00Z"), "no_common_working_time");
});

Deno.test("findSlots() blocks all-day busy days in the attendee's own zone", () => {
  const shanghai = person("Asia/Shanghai");
  const berlin = person("Europe/Berlin", [{ startDate: "2026-11-23", endDate: "2026-11-24" }]);
  const result = findSlots({
    window: span("2026-11-23T00:00:00Z", "2026-11-25T00:00:00Z"),
    durationMinutes: 60,
    attendees: [shanghai, berlin],
    limit: 3,
  });
  // Berlin's 09:00 is 08:00Z, Shanghai's 18:00 is 10:00Z; Monday is Berlin's day off.
  assert.deepEqual(utc(result.slots), [
    ["2026-11-24T08:00Z", "2026-11-24T09:00Z"],
    ["2026-11-24T09:00Z", "2026-11-24T10:00Z"],
  ]);
  assert.deepEqual(busyTime(berlin), [span("2026-11-22T23:00:00Z", "2026-11-23T23:00:00Z")]);
});

Deno.test("busyTime() reads Lark's exclusive end date; an end on the start day is one day", () => {
  const busy = (startDate: string, endDate: string) =>
    busyTime(person("America/New_York", [{ startDate, endDate }]));
  assert.deepEqual(busy("2026-11-23", "2026-11-26"), [
    span("2026-11-23T05:00:00Z", "2026-11-26T05:00:00Z"),
  ]);
  assert.deepEqual(busy("2026-11-23", "2026-11-23"), [
    span("2026-11-23T05:00:00Z", "2026-11-24T05:00:00Z"),
  ]);
  // Across the fall-back night: 25 hours.
  assert.deepEqual(busy("2026-11-01", "2026-11-02"), [
    span("2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z"),
  ]);
});

Deno.test("findSlots() finds nothing between Auckland and London 9-to-6: 13 hours apart", () => {
  const result = findSlots({
    window: span("2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z"),
    durationMinutes: 15,
    attendees: [person("Pacific/Auckland"), person("Europe/London")],
  });
  assert.deepEqual(result.slots, []);
  assert.deepEqual(result.free, []);
  assert.equal(result.reason, "no_common_working_time");
});

Deno.test("findSlots() skips days that are a weekend in either zone, Auckland and London", () => {
  // Auckland 07:00-12:00 (NZDT, +13) is 18:00-23:00Z the day before; London works 16:00-22:00.
  const attendees = [
    person("Pacific/Auckland", [], { workingHours: { startMinute: 7 * 60, endMinute: 12 * 60 } }),
    person("Europe/London", [], { workingHours: { startMinute: 16 * 60, endMinute: 22 * 60 } }),
  ];
  const window = span("2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z");
  const weekdays = findSlots({ window, durationMinutes: 240, attendees });
  // London's Friday evening is Auckland's Saturday; London's Sunday is Auckland's Monday.
  assert.deepEqual(utc(weekdays.slots), [
    ["2026-11-23T18:00Z", "2026-11-23T22:00Z"],
    ["2026-11-24T18:00Z", "2026-11-24T22:00Z"],
    ["2026-11-25T18:00Z", "2026-11-25T22:00Z"],
    ["2026-11-26T18:00Z", "2026-11-26T22:00Z"],
  ]);
  const everyDay = findSlots({ window, durationMinutes: 240, attendees, includeWeekends: true });
  assert.deepEqual(
    everyDay.slots.map((s) => new Date(s.start).toISOString().slice(0, 10)),
    [
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
      "2026-11-26",
      "2026-11-27",
      "2026-11-28",
      "2026-11-29",
    ],
  );
});

Deno.test("findSlots() finds the one hour Shanghai and Los Angeles share, Tuesday to Friday", () => {
  // Shanghai 09:00-10:00 (+08) is Los Angeles 17:00-18:00 (PST, -08) the day before.
  const result = findSlots({
    window: span("2026-11-23T00:00:00Z", "2026-11-28T00:00:00Z"),
    durationMinutes: 60,
    attendees: [person("Asia/Shanghai"), person("America/Los_Angeles")],
  });
  assert.deepEqual(utc(result.slots), [
    ["2026-11-24T01:00Z", "2026-11-24T02:00Z"],
    ["2026-11-25T01:00Z", "2026-11-25T02:00Z"],
    ["2026-11-26T01:00Z", "2026-11-26T02:00Z"],
    ["2026-11-27T01:00Z", "2026-11-27T02:00Z"],
  ]);
});

Deno.test("findSlots() follows New York's spring-forward: 4 shared hours with Berlin after it", () => {
  const attendees = [person("America/New_York"), person("Europe/Berlin")];
  const window = span("2026-03-06T00:00:00Z", "2026-03-10T00:00:00Z");
  // Friday 03-06: New York is EST (14:00-23:00Z), Berlin CET (08:00-17:00Z): 3 hours.
  // Monday 03-09: New York is EDT (13:00-22:00Z): 4 hours.
  const four = findSlots({ window, durationMinutes: 240, attendees });
  assert.deepEqual(utc(four.slots), [["2026-03-09T13:00Z", "2026-03-09T17:00Z"]]);
  const three = findSlots({ window, durationMinutes: 180, attendees, limit: 3 });
  assert.deepEqual(utc(three.slots), [
    ["2026-03-06T14:00Z", "2026-03-06T17:00Z"],
    ["2026-03-09T13:00Z", "2026-03-09T16:00Z"],
  ]);
});

Deno.test("findSlots() follows Berlin's fall-back and New York's a week later", () => {
  const result = findSlots({
    window: span("2026-10-23T00:00:00Z", "2026-11-04T00:00:00Z"),
    durationMinutes: 240,
    attendees: [person("Europe/Berlin"), person("America/New_York")],
  });
  // Only in the week when Berlin is back on CET and New York still on EDT is the overlap 4 hours.
  assert.deepEqual(
    utc(result.slots),
    ["26", "27", "28", "29", "30"].map((d) => [`2026-10-${d}T13:00Z`, `2026-10-${d}T17:00Z`]),
  );
});

Deno.test("findSlots() follows Berlin's spring-forward: 3 shared hours with New York after it", () => {
  const result = findSlots({
    window: span("2026-03-26T00:00:00Z", "2026-04-01T00:00:00Z"),
    durationMinutes: 210,
    attendees: [person("Europe/Berlin"), person("America/New_York")],
  });
  // Thursday and Friday before the change: CET 08:00-17:00Z and EDT 13:00-22:00Z.
  assert.deepEqual(utc(result.slots), [
    ["2026-03-26T13:00Z", "2026-03-26T16:30Z"],
    ["2026-03-27T13:00Z", "2026-03-27T16:30Z"],
  ]);
});

Deno.test("workingTime() counts 23 and 25 hours on DST days worked round the clock", () => {
  // Work all day on Sundays only; the window is the whole week around the change.
  const sundays = (timeZone: string) =>
    person(timeZone, [], { workingHours: { startMinute: 0, endMinute: 1440 }, workingDays: [7] });
  const hours = (timeZone: string, sunday: string) => {
    const window = span(`${sunday}T00:00:00Z`, `${sunday}T00:00:00Z`);
    window.start -= 3 * 24 * HOUR;
    window.end += 3 * 24 * HOUR;
    const days = workingTime(sundays(timeZone), window, false);
    assert.equal(days.length, 1);
    return (days[0].end - days[0].start) / HOUR;
  };
  assert.equal(hours("America/New_York", "2026-03-08"), 23);
  assert.equal(hours("America/New_York", "2026-11-01"), 25);
  assert.equal(hours("Europe/Berlin", "2026-03-29"), 23);
  assert.equal(hours("Europe/Berlin", "2026-10-25"), 25);
  assert.equal(hours("Europe/Berlin", "2026-11-01"), 24);
});

Deno.test("findSlots() skips the hour New York's clocks jump over", () => {
  // Working 01:00-04:00 on Sunday 2026-03-08: 01:00-02:00 EST, then 03:00-04:00 EDT.
  const nightOwl = person("America/New_York", [], {
    workingHours: { startMinute: 60, endMinute: 240 },
  });
  const result = findSlots({
    window: span("2026-03-08T00:00:00Z", "2026-03-09T00:00:00Z"),
    durationMinutes: 30,
    attendees: [nightOwl],
    includeWeekends: true,
  });
  assert.deepEqual(utc(result.free), [["2026-03-08T06:00Z", "2026-03-08T08:00Z"]]);
  assert.equal(result.slots.length, 4);
});

Deno.test("findSlots() counts the hour New York's clocks repeat", () => {
  // Working 01:00-03:00 on Sunday 2026-11-01: 01:00 EDT to 03:00 EST is three hours.
  const nightOwl = person("America/New_York", [], {
    workingHours: { startMinute: 60, endMinute: 180 },
  });
  const result = findSlots({
    window: span("2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z"),
    durationMinutes: 180,
    attendees: [nightOwl],
    includeWeekends: true,
  });
  assert.deepEqual(utc(result.slots), [["2026-11-01T05:00Z", "2026-11-01T08:00Z"]]);
});

Deno.test("findSlots() honours each person's working days", () => {
  // Sunday to Thursday in Riyadh (+03): from Thursday 18:00, the next working hour is Sunday's.
  const riyadh = person("Asia/Riyadh", [], { workingDays: [7, 1, 2, 3, 4] });
  const result = findSlots({
    window: span("2026-11-26T15:00:00Z", "2026-11-30T00:00:00Z"),
    durationMinutes: 60,
    attendees: [riyadh],
    limit: 1,
  });
  assert.deepEqual(utc(result.slots), [["2026-11-29T06:00Z", "2026-11-29T07:00Z"]]);
});

Deno.test("findSlots() refuses impossible options as programmer errors", () => {
  const attendees = [person("Asia/Shanghai")];
  assert.throws(() => find({ attendees, durationMinutes: 0 }), RangeError);
  assert.throws(() => find({ attendees, durationMinutes: 1.5 }), RangeError);
  assert.throws(() => find({ attendees, granularityMinutes: 0 }), RangeError);
  assert.throws(() => find({ attendees, granularityMinutes: 1441 }), RangeError);
  assert.throws(() => find({ attendees, limit: 0 }), /the limit 0 is not a whole number/);
  assert.throws(() => find({ attendees: [] }), /no attendees/);
  assert.throws(() => find({ attendees, window: { start: 0, end: Infinity } }), RangeError);
  assert.throws(() => find({ attendees: [person("Mars/Olympus")] }), RangeError);
});

Deno.test("explainNoSlot() says why in words", () => {
  assert.equal(
    explainNoSlot("window_too_short", 90),
    "the window is too short for a meeting of 1h30m",
  );
  assert.match(explainNoSlot("no_common_working_time", 30), /no 30m stretch .* working hours/);
  assert.match(explainNoSlot("all_busy", 60), /busy: no free 1h stretch/);
});

Deno.test("defaultWindow() runs from now to the end of the fifth working day", () => {
  // Friday 2026-11-27 15:00 in Shanghai: Friday, Monday, Tuesday, Wednesday, Thursday.
  const friday = at("2026-11-27T07:00:00Z");
  assert.deepEqual(defaultWindow(friday, "Asia/Shanghai"), {
    start: friday,
    end: at("2026-12-03T16:00:00Z"),
  });
  // On Saturday, Monday to Friday.
  const saturday = at("2026-11-28T07:00:00Z");
  assert.deepEqual(defaultWindow(saturday, "Asia/Shanghai").end, at("2026-12-04T16:00:00Z"));
  assert.deepEqual(
    defaultWindow(saturday, "Asia/Shanghai", { includeWeekends: true }).end,
    at("2026-12-02T16:00:00Z"),
  );
  assert.deepEqual(
    defaultWindow(friday, "Asia/Shanghai", { days: 1 }).end,
    at("2026-11-27T16:00:00Z"),
  );
  // The same instant is still Thursday in Los Angeles.
  assert.deepEqual(defaultWindow(friday, "America/Los_Angeles").end, at("2026-12-03T08:00:00Z"));
  assert.throws(() => defaultWindow(friday, "UTC", { days: 0 }), RangeError);
  assert.throws(() => defaultWindow(friday, "UTC", { workingDays: [] }), RangeError);
});
