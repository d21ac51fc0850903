import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { at, FakeClient, inputOf } from "../_fake_client.ts";
import { agenda, type AgendaItem, mergeAgenda, showEventSpan } from "./agenda.ts";

const DAY = 86_400;
const item = (id: string, start: number, status = "confirmed"): AgendaItem => ({
  event_id: id,
  summary: id,
  start_time: { timestamp: String(start) },
  end_time: { timestamp: String(start + 3600) },
  status,
});

Deno.test("mergeAgenda() drops cancelled events and duplicates, and sorts by start", () => {
  const merged = mergeAgenda([
    [item("b", 300), item("a", 100), item("x", 50, "cancelled")],
    [item("b", 300), item("b", 900), { ...item("d", 0), start_time: { date: "1970-01-01" } }],
  ], "UTC");
  assert.deepEqual(
    merged.map((i) => `${i.event_id}@${i.start_time.timestamp ?? i.start_time.date}`),
    [
      "d@1970-01-01",
      "a@100",
      "b@300",
      "b@900",
    ],
  );
});

Deno.test("agenda requests one instance_view per piece of at most 40 days", () => {
  const start = Date.UTC(2026, 0, 1);
  const input = inputOf({
    start: at(start),
    end: at(start + 120 * DAY * 1000),
    "calendar-id": "cal/1",
  });
  const requests = agenda.requests(input);
  assert.equal(requests.length, 4);
  assert.equal(requests[0].path, "/open-apis/calendar/v4/calendars/cal%2F1/events/instance_view");
  assert.deepEqual(requests[0].query, {
    start_time: start / 1000,
    end_time: start / 1000 + 30 * DAY,
  });
});

Deno.test("agenda validate rejects an end before the start, naming --end", () => {
  assert.throws(
    () =>
      agenda.validate!(
        inputOf({ start: at(2000_000), end: at(1000_000, "--end"), "calendar-id": "primary" }),
      ),
    (e: unknown) => e instanceof ValidationError && e.param === "--end",
  );
});

Deno.test("agenda run merges the pieces and stops at an error that is not about the span", async () => {
  const start = Date.UTC(2026, 0, 1) / 1000;
  const client = new FakeClient((r) => {
    const from = Number(r.query!.start_time);
    const to = Number(r.query!.end_time);
    if (from === start && to - from > 20 * DAY) {
      return Promise.reject(new Error("boom"));
    }
    return { items: [item(`e${from}`, from + 10), item("boundary", start + 30 * DAY - 60)] };
  });
  // A plain Error is not a span error: it ends the run.
  await assert.rejects(
    agenda.run!(
      inputOf({
        start: at(start * 1000),
        end: at((start + 60 * DAY) * 1000),
        "calendar-id": "primary",
      }),
      client,
    ),
  );
  const ok = new FakeClient((r) => {
    const from = Number(r.query!.start_time);
    return { items: [item(`e${from}`, from + 10), item("boundary", start + 30 * DAY - 60)] };
  });
  const result = await agenda.run!(
    inputOf({
      start: at(start * 1000),
      end: at((start + 60 * DAY) * 1000),
      "calendar-id": "primary",
    }),
    ok,
  ) as AgendaItem[];
  assert.equal(ok.requests.length, 2);
  assert.deepEqual(result.map((i) => i.event_id), [
    `e${start}`,
    "boundary",
    `e${start + 30 * DAY}`,
  ]);
});

Deno.test("showEventSpan() shows local times in the zone, and an all-day event's real days", () => {
  assert.deepEqual(
    showEventSpan({ start_time: { date: "2026-11-21" }, end_time: { date: "2026-11-23" } }, "UTC"),
    { start: "2026-11-21", end: "2026-11-22" },
  );
  const seconds = String(Date.UTC(2026, 10, 21, 9, 5) / 1000);
  const timed = { start_time: { timestamp: seconds }, end_time: { timestamp: seconds } };
  assert.equal(showEventSpan(timed, "UTC").start, "2026-11-21 09:05");
  assert.equal(showEventSpan(timed, "Asia/Shanghai").start, "2026-11-21 17:05");
});
