import assert from "node:assert/strict";
import { parseTimeInput } from "../time/mod.ts";
import { resolvedTimeNotes } from "./resolved_times.ts";

// Thursday 2026-03-12, 18:00 in Shanghai.
const NOW = Date.parse("2026-03-12T10:00:00Z");
const ZONE = "Asia/Shanghai";
const read = (text: string, param = "--start") =>
  parseTimeInput(text, { param, now: NOW, timeZone: ZONE });

Deno.test("resolvedTimeNotes() shows a time typed in words as the day and moment it names", () => {
  assert.deepEqual(
    resolvedTimeNotes({ start: read("tomorrow 3pm"), end: read("monday", "--end") }, ZONE),
    [
      '--start "tomorrow 3pm" is Fri 2026-03-13 15:00 (Asia/Shanghai)',
      '--end "monday" is Mon 2026-03-16',
    ],
  );
});

Deno.test("resolvedTimeNotes() says nothing of times typed as absolute ones, nor of other values", () => {
  assert.deepEqual(
    resolvedTimeNotes({
      start: read("2026-03-12 14:00"),
      end: read("2026-03-12T15:00+08:00", "--end"),
      summary: "tomorrow 3pm",
      day: read("2026-03-20", "--day"),
    }, ZONE),
    [],
  );
});
