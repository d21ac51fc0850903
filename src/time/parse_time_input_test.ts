import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { parseTimeInput, type TimeInput } from "./parse_time_input.ts";

// Thursday 2026-03-12 10:00 UTC: 18:00 in Shanghai, 06:00 in New York.
const NOW = Date.parse("2026-03-12T10:00:00Z");
const at = (iso: string) => Date.parse(iso);

function parse(text: string, timeZone = "Asia/Shanghai"): TimeInput {
  return parseTimeInput(text, { param: "--start", now: NOW, timeZone });
}

function instantOf(text: string, timeZone?: string): number {
  const input = parse(text, timeZone);
  assert.equal(input.kind, "instant", `${text} should be an instant`);
  return (input as { epochMs: number }).epochMs;
}

function dateOf(text: string, timeZone?: string): string {
  const input = parse(text, timeZone);
  assert.equal(input.kind, "date", `${text} should be a date`);
  return (input as { date: string }).date;
}

function rejects(text: string, pattern: RegExp, timeZone?: string): ValidationError {
  let caught: unknown;
  try {
    parse(text, timeZone);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ValidationError, `${JSON.stringify(text)} should be refused`);
  assert.equal(caught.param, "--start");
  assert.equal(caught.code, 2);
  assert.match(caught.message, pattern);
  return caught;
}

Deno.test("parseTimeInput() keeps a date-only value as a day, with the text as typed", () => {
  assert.deepEqual(parse("2026-03-12"), {
    kind: "date",
    date: "2026-03-12",
    text: "2026-03-12",
    param: "--start",
  });
  assert.deepEqual(parse("  2026-12-31 "), {
    kind: "date",
    date: "2026-12-31",
    text: "  2026-12-31 ",
    param: "--start",
  });
  assert.equal(dateOf("2028-02-29"), "2028-02-29");
});

Deno.test("parseTimeInput() reads a local date and time in the zone", () => {
  assert.equal(instantOf("2026-03-12 14:00"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12T14:00"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12t14:00"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12 9:05"), at("2026-03-12T01:05:00Z"));
  assert.equal(instantOf("2026-03-12 14:00:30"), at("2026-03-12T06:00:30Z"));
  assert.equal(instantOf("2026-03-12 14:00:30.250"), at("2026-03-12T06:00:30.250Z"));
  assert.equal(instantOf("2026-03-12 14:00", "America/New_York"), at("2026-03-12T18:00:00Z"));
  assert.equal(instantOf("2026-03-12 14:00", "Asia/Kathmandu"), at("2026-03-12T08:15:00Z"));
});

Deno.test("parseTimeInput() reads RFC 3339 with Z or an offset, with or without seconds", () => {
  assert.equal(instantOf("2026-03-12T14:00+08:00"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12T14:00:00+08:00"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12T06:00:00Z"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12T06:00Z"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12t06:00:00z"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12 06:00:00Z"), at("2026-03-12T06:00:00Z"));
  assert.equal(instantOf("2026-03-12T01:00:00.5-05:00"), at("2026-03-12T06:00:00.500Z"));
  assert.equal(instantOf("2026-03-12T11:45+05:45"), at("2026-03-12T06:00:00Z"));
  // The offset wins over the zone.
  assert.equal(instantOf("2026-03-12T14:00+08:00", "America/New_York"), at("2026-03-12T06:00:00Z"));
});

Deno.test("parseTimeInput() reads Unix seconds", () => {
  assert.equal(instantOf("1795251600"), 1795251600_000);
  assert.equal(instantOf("999999999"), 999999999_000);
});

Deno.test("parseTimeInput() reads now, today, tomorrow and yesterday in the zone", () => {
  assert.equal(instantOf("now"), NOW);
  assert.equal(instantOf("NOW"), NOW);
  // 10:00Z is 23:00 on the 12th in Auckland and midnight starting the 13th at UTC+14.
  assert.equal(dateOf("today"), "2026-03-12");
  assert.equal(dateOf("today", "Pacific/Auckland"), "2026-03-12");
  assert.equal(dateOf("today", "Pacific/Kiritimati"), "2026-03-13");
  assert.equal(dateOf("Tomorrow", "America/New_York"), "2026-03-13");
  assert.equal(dateOf("yesterday"), "2026-03-11");
  assert.equal(dateOf("yesterday", "Pacific/Kiritimati"), "2026-03-12");
});

Deno.test("parseTimeInput() reads +2d and -1w as days, +3h and -30m as instants", () => {
  assert.equal(dateOf("+2d"), "2026-03-14");
  assert.equal(dateOf("-1d"), "2026-03-11");
  assert.equal(dateOf("+1w"), "2026-03-19");
  assert.equal(dateOf("+20d"), "2026-04-01");
  assert.equal(instantOf("+3h"), NOW + 3 * 3_600_000);
  assert.equal(instantOf("-30m"), NOW - 30 * 60_000);
  assert.equal(instantOf("+1h30m"), NOW + 90 * 60_000);
});

Deno.test("parseTimeInput() takes the first of a local time the clocks show twice", () => {
  // New York falls back at 02:00 EDT on 2026-11-01: 01:30 happens at 05:30Z and again at 06:30Z.
  assert.equal(instantOf("2026-11-01 01:30", "America/New_York"), at("2026-11-01T05:30:00Z"));
  assert.equal(instantOf("2026-11-01 01:30-05:00", "America/New_York"), at("2026-11-01T06:30:00Z"));
});

Deno.test("parseTimeInput() refuses a local time the clocks skip, saying when they resume", () => {
  const error = rejects(
    "2026-03-08 02:30",
    /"2026-03-08 02:30" for --start: that time does not exist in America\/New_York: .* 03:00/,
    "America/New_York",
  );
  assert.match(error.recovery.suggestion, /2026-03-08 03:00 or later/);
  rejects("2026-03-29 02:15", /does not exist in Europe\/Berlin: .* 03:00/, "Europe/Berlin");
  // The same wall time with an offset is a real instant.
  assert.equal(
    instantOf("2026-03-08T02:30-05:00", "America/New_York"),
    at("2026-03-08T07:30:00Z"),
  );
});

Deno.test("parseTimeInput() refuses impossible dates and times, quoting them as typed", () => {
  for (
    const text of [
      "2026-02-29",
      "2026-02-30",
      "2026-13-01",
      "2026-00-10",
      "2026-04-31",
      "2026-03-12 24:00",
      "2026-03-12 12:60",
      "2026-03-12 12:00:60",
      "2026-03-12T12:00+24:00",
      "2026-03-12T12:00+08:60",
    ]
  ) {
    const error = rejects(text, /no such date or time/);
    assert.ok(error.message.includes(JSON.stringify(text)));
    assert.match(error.recovery.suggestion, /2026-03-12T14:00\+08:00/);
  }
});

Deno.test("parseTimeInput() refuses other text, listing the accepted forms and the zone", () => {
  for (
    const text of [
      "",
      "bogus",
      "20260312",
      "12/03/2026",
      "2026-3-12",
      "1795251600000",
      "2026-03-12T14",
      "2026-03-12T14:00+0800",
      "+2x",
      "next week",
      "constructor",
      "toString",
    ]
  ) {
    const error = rejects(
      text,
      /expected a date \(2026-03-12, 12 Mar, Mar 12 2026\), a local time .*RFC 3339.*\+2d/,
    );
    assert.ok(error.message.startsWith(`Invalid value ${JSON.stringify(text)} for --start`));
    if (!text.includes("/")) assert.match(error.recovery.suggestion, /read in Asia\/Shanghai/);
  }
});

Deno.test("parseTimeInput() names where the value came from", () => {
  assert.throws(
    () =>
      parseTimeInput("soon", {
        param: "--end",
        source: "HARK_CALENDAR_END",
        now: NOW,
        timeZone: "UTC",
      }),
    (error: unknown) =>
      error instanceof ValidationError && error.param === "--end" &&
      error.message.startsWith('Invalid value "soon" for --end (from HARK_CALENDAR_END):'),
  );
});

// Natural forms. NOW is Thursday 2026-03-12, 18:00 in Shanghai.

Deno.test("parseTimeInput() reads a relative day with a 24-hour time", () => {
  assert.equal(instantOf("tomorrow 11:00"), at("2026-03-13T03:00:00Z"));
  assert.equal(instantOf("Tomorrow at 11:00"), at("2026-03-13T03:00:00Z"));
});

Deno.test("parseTimeInput() reads a 12-hour time with am or pm, before or after the day", () => {
  assert.equal(instantOf("tomorrow 3pm"), at("2026-03-13T07:00:00Z"));
  assert.equal(instantOf("tomorrow 3:30 PM"), at("2026-03-13T07:30:00Z"));
  assert.equal(instantOf("3pm tomorrow"), at("2026-03-13T07:00:00Z"));
  assert.equal(instantOf("today 12am"), at("2026-03-11T16:00:00Z"));
  assert.equal(instantOf("today 12pm"), at("2026-03-12T04:00:00Z"));
  assert.equal(instantOf("tomorrow noon"), at("2026-03-13T04:00:00Z"));
});

Deno.test("parseTimeInput() reads a time alone as today", () => {
  assert.equal(instantOf("9am"), at("2026-03-12T01:00:00Z"));
  assert.equal(instantOf("15:00"), at("2026-03-12T07:00:00Z"));
});

Deno.test("parseTimeInput() reads a weekday as that day from today on, today included", () => {
  assert.equal(dateOf("monday"), "2026-03-16");
  assert.equal(dateOf("Thu"), "2026-03-12");
  assert.equal(dateOf("friday"), "2026-03-13");
});

Deno.test("parseTimeInput() reads next and last weekday as GNU date does: never today", () => {
  assert.equal(dateOf("next thursday"), "2026-03-19");
  assert.equal(dateOf("next fri"), "2026-03-13");
  assert.equal(dateOf("last thursday"), "2026-03-05");
  assert.equal(dateOf("last monday"), "2026-03-09");
  assert.equal(instantOf("next monday 3pm"), at("2026-03-16T07:00:00Z"));
});

Deno.test("parseTimeInput() reads a numeric date with a 12-hour time", () => {
  assert.equal(instantOf("2026-11-30 3pm"), at("2026-11-30T07:00:00Z"));
});

Deno.test("parseTimeInput() reads a day and month name, this year when no year is given", () => {
  assert.equal(dateOf("30 Nov"), "2026-11-30");
  assert.equal(dateOf("Nov 30"), "2026-11-30");
  assert.equal(dateOf("30th November 2027"), "2027-11-30");
  assert.equal(dateOf("Nov 30, 2027"), "2027-11-30");
  assert.equal(instantOf("30 Nov 9:30am"), at("2026-11-30T01:30:00Z"));
});

Deno.test("parseTimeInput() refuses a named day the month does not have", () => {
  rejects("31 Nov", /no such date or time/);
  rejects("2026-02-30 3pm", /no such date or time/);
});

Deno.test("parseTimeInput() refuses slash dates and a lone next, listing the accepted forms", () => {
  const error = rejects("01/02", /read differently by country.*expected .*tomorrow 3pm/);
  assert.match(error.recovery.suggestion ?? "", /2026-03-12/);
  rejects("1/2/2026 3pm", /read differently by country/);
  rejects("next", /needs a weekday after it/);
  rejects("13pm", /expected a date/);
  rejects("3", /expected a date/);
  rejects("next week", /expected a date/);
});

Deno.test("parseTimeInput() reads a natural time across a DST change in the day's own offset", () => {
  // New York moves to summer time on Sunday 2026-03-08; NOW is Thursday 06:00 there.
  assert.equal(instantOf("last sunday 9am", "America/New_York"), at("2026-03-08T13:00:00Z"));
  assert.equal(instantOf("last saturday 9am", "America/New_York"), at("2026-03-07T14:00:00Z"));
  rejects("last sunday 2:30am", /does not exist in America\/New_York/, "America/New_York");
});

Deno.test("parseTimeInput() counts weekdays from today in the user's zone", () => {
  // 10:00 UTC Thursday is still 23:00 Wednesday in Pago Pago (UTC-11).
  assert.equal(dateOf("thursday", "Pacific/Pago_Pago"), "2026-03-12");
  assert.equal(dateOf("wednesday", "Pacific/Pago_Pago"), "2026-03-11");
});
