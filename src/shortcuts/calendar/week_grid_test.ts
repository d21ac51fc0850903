import assert from "node:assert/strict";
import { textWidth } from "../../output/text_width.ts";
import { drawBusyBars } from "./busy_bar.ts";
import { drawWeekGrid } from "./week_grid.ts";
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
  // Too narrow for two lanes: the overlap is counted on the rows it shares, and listed whole.
  assert.ok(narrow.includes("\n      │         │▌revi… +1│"), narrow);
  assert.match(narrow, /\nalso Tue 11-24 14:30–15:00 Overlap\n$/);
});

Deno.test("drawWeekGrid() reads times in the viewer's zone and says when there is nothing", () => {
  const rows = [timed("a", "Standup", "2026-11-23T01:00:00Z", "2026-11-23T01:15:00Z")];
  const text = drawWeekGrid(rows, { days: ["2026-11-23"], timeZone: "Asia/Shanghai", width: 60 });
  assert.match(text, /^Mon 2026-11-23 \(Asia\/Shanghai\)\n/);
  assert.match(text, /09:00 │▌09:00 Standup/);
  assert.match(drawWeekGrid([], { days: WEEK, timeZone: "UTC", width: 80 }), /No events\.\n$/);
});

Deno.test("drawWeekGrid() puts overlapping events side by side, or lists those it cannot", () => {
  const rows = [
    timed("a", "Design review", "2026-11-24T14:00:00Z", "2026-11-24T15:30:00Z"),
    timed("b", "Roadmap sync", "2026-11-24T14:00:00Z", "2026-11-24T15:00:00Z"),
  ];
  // A day view is wide enough for two lanes: both titles on the 14:00 row.
  const day = drawWeekGrid(rows, { days: ["2026-11-24"], timeZone: "UTC", width: 80 });
  assert.match(day, /^14:00 │▌14:00 Design review +▌14:00 Roadmap sync/m);
  assert.ok(!day.includes("+1"), day);
  // A week at 80 columns is not: the first lane is drawn, the other listed, title whole.
  const week = drawWeekGrid(rows, { days: WEEK, timeZone: "UTC", width: 80 });
  assert.ok(week.includes("│▌Desi… +1│"), week);
  assert.match(week, /\nalso Tue 11-24 14:00–15:00 Roadmap sync\n$/);
  for (const line of week.trimEnd().split("\n")) assert.ok(textWidth(line) <= 80, line);
});

Deno.test("drawWeekGrid() clips an event running over midnight to the day shown", () => {
  const rows = [timed("n", "Night shift", "2026-11-24T22:00:00Z", "2026-11-25T02:00:00Z")];
  const first = drawWeekGrid(rows, { days: ["2026-11-24"], timeZone: "UTC", width: 60 });
  const hours = (text: string) => text.split("\n").filter((l) => /^\d\d:00 /.test(l));
  // The default 08:00 to 18:00, widened to midnight only: not the whole 24 hours.
  assert.equal(hours(first)[0].slice(0, 5), "08:00");
  assert.equal(hours(first).length, 16);
  assert.match(first, /^22:00 │▌22:00 Night shift/m);
  const next = drawWeekGrid(rows, { days: ["2026-11-25"], timeZone: "UTC", width: 60 });
  assert.equal(hours(next)[0].slice(0, 5), "00:00");
  assert.equal(hours(next).length, 18, "00:00 to 18:00");
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
