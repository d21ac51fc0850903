import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { formatWorkingHours, parseWorkingHours } from "./parse_working_hours.ts";

const where = { param: "--working-hours" };

Deno.test("parseWorkingHours() reads HH:MM-HH:MM into minutes after midnight", () => {
  assert.deepEqual(parseWorkingHours("09:00-18:00", where), { startMinute: 540, endMinute: 1080 });
  assert.deepEqual(parseWorkingHours("9:30-17:30", where), { startMinute: 570, endMinute: 1050 });
  assert.deepEqual(parseWorkingHours(" 08:15 – 12:00 ", where), {
    startMinute: 495,
    endMinute: 720,
  });
  assert.deepEqual(parseWorkingHours("00:00-24:00", where), { startMinute: 0, endMinute: 1440 });
});

Deno.test("parseWorkingHours() refuses malformed, impossible and backwards ranges", () => {
  const cases: [string, RegExp][] = [
    ["9-17", /expected HH:MM-HH:MM such as 09:00-18:00/],
    ["09:00", /expected HH:MM-HH:MM/],
    ["09:00-18:00-19:00", /expected HH:MM-HH:MM/],
    ["25:00-26:00", /times from 00:00 to 24:00/],
    ["09:60-18:00", /times from 00:00 to 24:00/],
    ["09:00-24:30", /times from 00:00 to 24:00/],
    ["18:00-09:00", /the end must come after the start on the same day/],
    ["09:00-09:00", /the end must come after the start/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(
      () => parseWorkingHours(text, where),
      (error: unknown) =>
        error instanceof ValidationError && error.param === "--working-hours" &&
        error.message.includes(JSON.stringify(text)) && pattern.test(error.message),
      text,
    );
  }
});

Deno.test("formatWorkingHours() writes them back as typed", () => {
  assert.equal(formatWorkingHours({ startMinute: 540, endMinute: 1080 }), "09:00-18:00");
  assert.equal(formatWorkingHours({ startMinute: 0, endMinute: 1440 }), "00:00-24:00");
});
