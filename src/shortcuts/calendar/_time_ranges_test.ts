import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { inputOf } from "../../../tests/support/fake_client.ts";
import { MAX_RANGES, parseTimeRanges } from "./_time_ranges.ts";

const input = inputOf({});

Deno.test("parseTimeRanges() reads start~end ranges in the input's zone, a date end its whole day", () => {
  assert.deepEqual(
    parseTimeRanges("2026-12-01 10:00~2026-12-01 11:00, 2026-12-02~2026-12-02", "--slot", input),
    [
      { start: Date.UTC(2026, 11, 1, 10), end: Date.UTC(2026, 11, 1, 11) },
      { start: Date.UTC(2026, 11, 2), end: Date.UTC(2026, 11, 3) },
    ],
  );
});

Deno.test("parseTimeRanges() refuses a range that is not start~end, an end before its start, too many", () => {
  const cases: [string, RegExp][] = [
    ["", /at least one/],
    ["2026-12-01 10:00", /not start~end/],
    ["2026-12-01 10:00~", /not start~end/],
    ["a~b~c", /not start~end/],
    ["2026-12-01 11:00~2026-12-01 10:00", /not after/],
    ["2026-12-01 10:00~soon", /soon/],
    [Array(MAX_RANGES + 1).fill("2026-12-01~2026-12-01").join(","), /at most 20/],
  ];
  for (const [text, why] of cases) {
    assert.throws(
      () => parseTimeRanges(text, "--slot", input),
      (e: unknown) => e instanceof ValidationError && e.param === "--slot" && why.test(e.message),
      text,
    );
  }
});
