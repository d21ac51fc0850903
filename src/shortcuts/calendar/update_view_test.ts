import assert from "node:assert/strict";
import { drawChanges } from "./update_view.ts";

Deno.test("drawChanges() shows before → after in local time, terminal-safe", () => {
  const text = drawChanges({
    event_id: "ev_0",
    scope: "instance",
    series_id: "s_0",
    changes: [
      { field: "summary", before: "Old\x1b[31m", after: "New" },
      {
        field: "start_time",
        before: "2026-11-25T14:00:00+00:00",
        after: "2026-11-25T15:00:00+00:00",
      },
    ],
    attendees_added: ["ou_2"],
    attendees_removed: [],
  }, "Asia/Shanghai");
  assert.equal(
    text,
    "Updated event ev_0 (one instance of series s_0)\n" +
      '  summary     "Old\\\\x1b[31m" → "New"\n' +
      "  start_time  2026-11-25 22:00 → 2026-11-25 23:00\n" +
      "  + attendee ou_2\n",
  );
});
