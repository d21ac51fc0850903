import assert from "node:assert/strict";
import { type Progress, PROGRESS_AFTER_MS, progressGate, progressReporter } from "./progress.ts";

Deno.test("progressReporter() is silent for the first second, then counts up, with the total when a line says it", () => {
  let now = 0;
  const sent: Progress[] = [];
  const status = progressReporter({ now: () => now }, (p) => void sent.push(p));
  status("Reading the agenda: 1 of 10 pieces done");
  assert.deepEqual(sent, [], "a call done within a second sends none");
  now = PROGRESS_AFTER_MS;
  status("Reading the agenda: 4 of 10 pieces done");
  status(undefined); // the line cleared
  status("Reading the agenda: 3 of 10 pieces done"); // pieces end out of order
  status("120 messages read (3 pages)\nforged");
  assert.deepEqual(sent, [
    { progress: 4, total: 10, message: "Reading the agenda: 4 of 10 pieces done" },
    { progress: 5, total: 10, message: "Reading the agenda: 3 of 10 pieces done" },
    { progress: 6, message: "120 messages read (3 pages)\\nforged" },
  ]);
});

Deno.test("progressGate() passes progress on until it is closed, then drops it", () => {
  const sent: number[] = [];
  const gate = progressGate((p) => sent.push(p.progress));
  gate.sink({ progress: 1, message: "1 of 2" });
  gate.close();
  gate.sink({ progress: 2, message: "2 of 2" });
  assert.deepEqual(sent, [1]);
});
