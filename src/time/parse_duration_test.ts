import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { formatDuration, parseDuration, readDurationMinutes } from "./parse_duration.ts";

const where = { param: "--duration" };

Deno.test("parseDuration() reads hours and minutes", () => {
  assert.equal(parseDuration("30m", where), 30);
  assert.equal(parseDuration("1h", where), 60);
  assert.equal(parseDuration("1h30m", where), 90);
  assert.equal(parseDuration("90m", where), 90);
  assert.equal(parseDuration("2h", where), 120);
  assert.equal(parseDuration(" 1H 15M ", where), 75);
  assert.equal(parseDuration("45min", where), 45);
  assert.equal(parseDuration("0h5m", where), 5);
});

Deno.test("parseDuration() refuses anything else, naming the flag and quoting the text", () => {
  const cases: [string, RegExp][] = [
    ["30", /"30" for --duration: a number needs a unit, h or m/],
    ["", /expected a duration in hours and minutes such as 30m, 1h or 1h30m/],
    ["1.5h", /expected a duration/],
    ["30s", /expected a duration/],
    ["1d", /expected a duration/],
    ["-30m", /expected a duration/],
    ["m", /expected a duration/],
    ["30m1h", /expected a duration/],
    ["0m", /longer than zero/],
    ["0h", /longer than zero/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(
      () => parseDuration(text, where),
      (error: unknown) =>
        error instanceof ValidationError && error.param === "--duration" &&
        pattern.test(error.message),
      text,
    );
  }
  assert.throws(
    () => parseDuration("30", where),
    (error: unknown) =>
      error instanceof ValidationError && /30m for minutes or 30h/.test(error.recovery.suggestion),
  );
});

Deno.test("readDurationMinutes() returns undefined instead of throwing", () => {
  assert.equal(readDurationMinutes("1h30m"), 90);
  assert.equal(readDurationMinutes("0m"), 0);
  assert.equal(readDurationMinutes("soon"), undefined);
  assert.equal(readDurationMinutes("99999999999999999h"), undefined);
});

Deno.test("formatDuration() writes minutes back the way parseDuration() reads them", () => {
  assert.equal(formatDuration(30), "30m");
  assert.equal(formatDuration(60), "1h");
  assert.equal(formatDuration(90), "1h30m");
  assert.equal(formatDuration(0), "0m");
  for (const minutes of [1, 15, 59, 61, 120, 1439]) {
    assert.equal(parseDuration(formatDuration(minutes), where), minutes);
  }
});
