import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { parseTimeInput } from "./parse_time_input.ts";
import { resolveTimeInput, resolveTimeRange } from "./time_range.ts";

const NOW = Date.parse("2026-03-12T10:00:00Z");
const at = (iso: string) => Date.parse(iso);
const start = (text: string, timeZone = "Europe/Berlin") =>
  parseTimeInput(text, { param: "--start", now: NOW, timeZone });
const end = (text: string, timeZone = "Europe/Berlin") =>
  parseTimeInput(text, { param: "--end", now: NOW, timeZone });

Deno.test("resolveTimeInput() puts a date at the start or the exclusive end of its day", () => {
  assert.equal(
    resolveTimeInput(start("2026-03-12"), "start", "Europe/Berlin"),
    at("2026-03-11T23:00:00Z"),
  );
  assert.equal(
    resolveTimeInput(start("2026-03-12"), "end", "Europe/Berlin"),
    at("2026-03-12T23:00:00Z"),
  );
  assert.equal(
    resolveTimeInput(start("2026-03-29"), "end", "Europe/Berlin"),
    at("2026-03-29T22:00:00Z"),
  );
  assert.equal(resolveTimeInput(start("now"), "end", "Europe/Berlin"), NOW);
});

Deno.test("resolveTimeRange() with a date alone covers that whole day", () => {
  assert.deepEqual(resolveTimeRange(start("2026-03-20"), undefined, "Europe/Berlin"), {
    start: at("2026-03-19T23:00:00Z"),
    end: at("2026-03-20T23:00:00Z"),
  });
  // Spring forward: the day lasts 23 hours.
  assert.deepEqual(resolveTimeRange(start("2026-03-29"), undefined, "Europe/Berlin"), {
    start: at("2026-03-28T23:00:00Z"),
    end: at("2026-03-29T22:00:00Z"),
  });
});

Deno.test("resolveTimeRange() with a moment alone runs to the end of its day in the zone", () => {
  assert.deepEqual(resolveTimeRange(start("now"), undefined, "Europe/Berlin"), {
    start: NOW,
    end: at("2026-03-12T23:00:00Z"),
  });
  assert.deepEqual(resolveTimeRange(start("now", "Asia/Tokyo"), undefined, "Asia/Tokyo"), {
    start: NOW,
    end: at("2026-03-12T15:00:00Z"),
  });
});

Deno.test("resolveTimeRange() includes the whole --end day", () => {
  assert.deepEqual(resolveTimeRange(start("2026-03-12"), end("2026-03-12"), "Europe/Berlin"), {
    start: at("2026-03-11T23:00:00Z"),
    end: at("2026-03-12T23:00:00Z"),
  });
  assert.deepEqual(
    resolveTimeRange(start("2026-03-12 09:00"), end("2026-03-14"), "Europe/Berlin"),
    { start: at("2026-03-12T08:00:00Z"), end: at("2026-03-14T23:00:00Z") },
  );
});

Deno.test("resolveTimeRange() refuses an end not after the start, quoting both as typed", () => {
  const cases: [string, string][] = [
    ["2026-03-12", "2026-03-01"],
    ["2026-03-12 10:00", "2026-03-12 10:00"],
    ["2026-03-12T10:00+01:00", "2026-03-12 09:59"],
    ["tomorrow", "today"],
  ];
  for (const [from, to] of cases) {
    assert.throws(
      () => resolveTimeRange(start(from), end(to), "Europe/Berlin"),
      (error: unknown) =>
        error instanceof ValidationError && error.param === "--end" &&
        error.message ===
          `Invalid time range: --end ${JSON.stringify(to)} is not after --start ${
            JSON.stringify(from)
          }` &&
        error.recovery.suggestion === `Set --end later than ${from}`,
      `${from} / ${to}`,
    );
  }
});
