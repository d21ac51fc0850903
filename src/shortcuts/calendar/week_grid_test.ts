import assert from "node:assert/strict";
import { textWidth } from "../../output/mod.ts";
import { drawBusyBars } from "./busy_bar.ts";
import { drawWeekGrid, wrap } from "./week_grid.ts";
import { eventJson } from "./_event_json.ts";

const WEEK = ["23", "24", "25", "26", "27", "28", "29"].map((d) => `2026-11-${d}`);
const timed = (id: string, summary: string, start: string, end: string) => ({
  event_id: id,
  summary,
  start_time: start,
  end_time: end,
  all_day: false,
});

Deno.test("drawWeekGrid() fits the width, puts all-day events on top and labels blocks", () => {
  const rows = [
    timed("a", "Design review with everyone", "2026-11-24T14:00:00Z", "2026-11-24T15:30:00Z"),
    timed("b", "Overlap", "2026-11-24T14:30:00Z", "2026-11-24T15:00:00Z"),
    {
      event_id: "c",
      summary: "Offsite",
      start_time: "2026-11-25",
      end_time: "2026-11-26",
      all_day: true,
    },
    timed("d", "Late \x1b[2Jcall", "2026-11-27T20:00:00Z", "2026-11-27T21:00:00Z"),
  ];
  for (const width of [80, 160, 45]) {
    const text = drawWeekGrid(rows, { days: WEEK, timeZone: "UTC", width });
    const lines = text.trimEnd().split("\n");
    for (const line of lines) assert.ok(textWidth(line) <= width, `${width}: ${line}`);
    assert.ok(!text.includes("\x1b"), "no escape reaches the terminal");
    const allDay = lines.find((l) => l.startsWith("all"))!;
    const offsite = allDay.split("│").filter((c) => c.trim().startsWith("Off")).length;
    assert.equal(offsite, 2, `${width}: ${allDay}`);
    // The hours widen to the late call.
    assert.ok(lines.some((l) => l.startsWith("20:00")));
    assert.ok(!lines.some((l) => l.startsWith("07:00")));
  }
  const narrow = drawWeekGrid(rows, { days: WEEK, timeZone: "UTC", width: 80 });
  assert.ok(narrow.includes("14:00 │         │▌Design  │"));
  assert.ok(narrow.includes("\n      │         │▌Over… +1│"));
});

Deno.test("drawWeekGrid() reads times in the viewer's zone and says when there is nothing", () => {
  const rows = [timed("a", "Standup", "2026-11-23T01:00:00Z", "2026-11-23T01:15:00Z")];
  const text = drawWeekGrid(rows, { days: ["2026-11-23"], timeZone: "Asia/Shanghai", width: 60 });
  assert.match(text, /^Mon 2026-11-23 \(Asia\/Shanghai\)\n/);
  assert.match(text, /09:00 │▌09:00 Standup/);
  assert.match(drawWeekGrid([], { days: WEEK, timeZone: "UTC", width: 80 }), /No events\.\n$/);
});

Deno.test("wrap() wraps by display width and cuts a word wider than a line", () => {
  assert.deepEqual(wrap("Design review with the team", 10), [
    "Design",
    "review",
    "with the",
    "team",
  ]);
  assert.deepEqual(wrap("会议设计评审", 6), ["会议设", "计评审"]);
  assert.deepEqual(wrap("", 5), [""]);
});

Deno.test("drawBusyBars() draws one bar per day, busy, partly and outside the span", () => {
  const text = drawBusyBars(
    [
      { start_time: "2026-11-23T09:00:00Z", end_time: "2026-11-23T12:00:00Z" },
      { start_time: "2026-11-24T10:00:00Z", end_time: "2026-11-24T10:05:00Z" },
    ],
    {
      person: "ou_1",
      span: { start: Date.parse("2026-11-23T06:00:00Z"), end: Date.parse("2026-11-25T00:00:00Z") },
      timeZone: "UTC",
      width: 58,
    },
  );
  const lines = text.trimEnd().split("\n");
  assert.match(lines[0], /^Busy times of ou_1, 2026-11-23 to 2026-11-24 \(UTC\)/);
  // 58 columns leave 46 cells of 30 minutes... of 24h / 46 each.
  const monday = lines[2];
  assert.ok(monday.startsWith("Mon 11-23 │"));
  assert.ok(monday.includes("█"));
  assert.ok(monday.slice(11, 20).trim() === "", "before the span is blank");
  assert.ok(lines[3].includes("▒"), "five minutes of a cell is partly busy");
  for (const line of lines.slice(1)) assert.ok(textWidth(line) <= 58, line);
});

Deno.test("eventJson() writes RFC 3339 in the viewer's zone and all-day dates with the real last day", () => {
  const out = eventJson({
    event_id: "e",
    start_time: { timestamp: "1795427100", timezone: "Europe/Berlin" },
    end_time: { timestamp: "1795428900", timezone: "Europe/Berlin" },
    create_time: "1795400000",
  }, "Asia/Shanghai");
  assert.equal(out.start_time, "2026-11-23T17:45:00+08:00");
  assert.equal(out.all_day, false);
  assert.equal(out.event_timezone, "Europe/Berlin");
  const allDay = eventJson(
    { event_id: "e", start_time: { date: "2026-11-23" }, end_time: { date: "2026-11-26" } },
    "UTC",
  );
  assert.deepEqual([allDay.start_time, allDay.end_time, allDay.all_day], [
    "2026-11-23",
    "2026-11-25",
    true,
  ]);
});
