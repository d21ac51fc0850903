import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import {
  formatEventSpan,
  larkEventSpan,
  readLarkEventTime,
  toLarkEventTimes,
} from "./lark_event_time.ts";
import { parseTimeInput } from "./parse_time_input.ts";

const NOW = Date.parse("2026-03-12T10:00:00Z");
const at = (iso: string) => Date.parse(iso);
const input = (param: string, text: string, timeZone = "Asia/Shanghai") =>
  parseTimeInput(text, { param, now: NOW, timeZone });

Deno.test("readLarkEventTime() reads Unix seconds or a date", () => {
  assert.deepEqual(readLarkEventTime({ timestamp: "1795427100" }), { epochMs: 1795427100_000 });
  assert.deepEqual(
    readLarkEventTime({ timestamp: "1795427100", timezone: "Asia/Shanghai" }),
    { epochMs: 1795427100_000 },
  );
  assert.deepEqual(readLarkEventTime({ date: "2026-11-23" }), { date: "2026-11-23" });
  assert.equal(readLarkEventTime({ timestamp: "soon" }), undefined);
  assert.equal(readLarkEventTime({ date: "2026-02-30" }), undefined);
  assert.equal(readLarkEventTime({}), undefined);
  assert.equal(readLarkEventTime(undefined), undefined);
});

Deno.test("larkEventSpan() shows an all-day event's real last day", () => {
  assert.deepEqual(larkEventSpan({ date: "2026-11-23" }, { date: "2026-11-24" }, "UTC"), {
    allDay: true,
    firstDay: "2026-11-23",
    lastDay: "2026-11-23",
  });
  assert.deepEqual(larkEventSpan({ date: "2026-11-23" }, { date: "2026-11-26" }, "UTC"), {
    allDay: true,
    firstDay: "2026-11-23",
    lastDay: "2026-11-25",
  });
});

Deno.test("larkEventSpan() reads a timed event, keeping its zone", () => {
  assert.deepEqual(
    larkEventSpan(
      { timestamp: "1795427100", timezone: "Asia/Shanghai" },
      { timestamp: "1795430700", timezone: "Asia/Shanghai" },
      "UTC",
    ),
    { allDay: false, start: 1795427100_000, end: 1795430700_000, timeZone: "Asia/Shanghai" },
  );
  assert.deepEqual(
    larkEventSpan({ date: "2026-11-23" }, { timestamp: "1795430700" }, "Asia/Shanghai"),
    { allDay: false, start: at("2026-11-22T16:00:00Z"), end: 1795430700_000 },
  );
  assert.equal(larkEventSpan({ date: "2026-11-23" }, undefined, "UTC"), undefined);
});

Deno.test("formatEventSpan() gives local text for tables and RFC 3339 for JSON", () => {
  const seconds = (iso: string) => String(at(iso) / 1000);
  const timed = larkEventSpan(
    { timestamp: seconds("2026-11-23T01:05:00Z") },
    { timestamp: seconds("2026-11-23T02:05:00Z") },
    "UTC",
  )!;
  assert.deepEqual(formatEventSpan(timed, "Asia/Shanghai", "local"), {
    start: "2026-11-23 09:05",
    end: "2026-11-23 10:05",
  });
  assert.deepEqual(formatEventSpan(timed, "Asia/Shanghai", "rfc3339"), {
    start: "2026-11-23T09:05:00+08:00",
    end: "2026-11-23T10:05:00+08:00",
  });
  const allDay = larkEventSpan({ date: "2026-11-23" }, { date: "2026-11-25" }, "UTC")!;
  for (const style of ["local", "rfc3339"] as const) {
    assert.deepEqual(formatEventSpan(allDay, "Asia/Shanghai", style), {
      start: "2026-11-23",
      end: "2026-11-24",
    });
  }
});

Deno.test("toLarkEventTimes() makes an all-day event of one date-only day", () => {
  assert.deepEqual(
    toLarkEventTimes(input("--start", "2026-03-12"), input("--end", "2026-03-12"), "Asia/Shanghai"),
    { start_time: { date: "2026-03-12" }, end_time: { date: "2026-03-13" } },
  );
});

Deno.test("toLarkEventTimes() makes an all-day event of a range of date-only days", () => {
  const times = toLarkEventTimes(
    input("--start", "2026-02-27"),
    input("--end", "2026-03-02"),
    "Asia/Shanghai",
  );
  assert.deepEqual(times, {
    start_time: { date: "2026-02-27" },
    end_time: { date: "2026-03-03" },
  });
  assert.deepEqual(larkEventSpan(times.start_time, times.end_time, "UTC"), {
    allDay: true,
    firstDay: "2026-02-27",
    lastDay: "2026-03-02",
  });
});

Deno.test("toLarkEventTimes() makes a timed event in the zone, with its zone", () => {
  assert.deepEqual(
    toLarkEventTimes(
      input("--start", "2026-03-12 14:00", "Europe/Berlin"),
      input("--end", "2026-03-12T15:30+01:00", "Europe/Berlin"),
      "Europe/Berlin",
    ),
    {
      start_time: {
        timestamp: String(at("2026-03-12T13:00:00Z") / 1000),
        timezone: "Europe/Berlin",
      },
      end_time: { timestamp: String(at("2026-03-12T14:30:00Z") / 1000), timezone: "Europe/Berlin" },
    },
  );
  // A date on one side stands for the start (or end) of that day.
  assert.deepEqual(
    toLarkEventTimes(
      input("--start", "2026-03-12"),
      input("--end", "2026-03-12 10:00"),
      "Asia/Shanghai",
    ),
    {
      start_time: {
        timestamp: String(at("2026-03-11T16:00:00Z") / 1000),
        timezone: "Asia/Shanghai",
      },
      end_time: { timestamp: String(at("2026-03-12T02:00:00Z") / 1000), timezone: "Asia/Shanghai" },
    },
  );
});

Deno.test("toLarkEventTimes() refuses an end before the start, quoting both as typed", () => {
  const refused = (from: string, to: string, pattern: RegExp) =>
    assert.throws(
      () => toLarkEventTimes(input("--start", from), input("--end", to), "Asia/Shanghai"),
      (error: unknown) =>
        error instanceof ValidationError && error.param === "--end" && pattern.test(error.message),
    );
  refused("2026-03-12", "2026-03-11", /--end "2026-03-11" is before --start "2026-03-12"/);
  refused("2026-03-12 15:00", "2026-03-12 14:00", /--end "2026-03-12 14:00" is not after/);
  refused("2026-03-12 15:00", "2026-03-12T15:00+08:00", /is not after --start "2026-03-12 15:00"/);
});
