import assert from "node:assert/strict";
import { ApiError, ValidationError } from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { at, collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { agenda, agendaSpan, mergePiece, showEventSpan, viewDays } from "./agenda.ts";
import type { LarkEvent } from "./_lark_event.ts";

const DAY = 86_400;
const item = (id: string, start: number, status = "confirmed", length = 3600): LarkEvent => ({
  event_id: id,
  summary: id,
  start_time: { timestamp: String(start) },
  end_time: { timestamp: String(start + length) },
  status,
});
const date = (text: string, param = "--start") => ({
  kind: "date" as const,
  date: text,
  text,
  param,
});

Deno.test("mergePiece() drops cancelled events and repeats, sorts, and carries only crossers", () => {
  const piece = { start: 0, end: 10_000 };
  const merged = mergePiece(
    [
      item("b", 300),
      item("a", 100),
      item("x", 50, "cancelled"),
      item("b", 300),
      { ...item("d", 0), start_time: { date: "1970-01-01" }, end_time: { date: "1970-01-02" } },
      item("late", 9_900, "confirmed", 500),
    ],
    piece,
    new Set(),
    "UTC",
  );
  assert.deepEqual(merged.items.map((i) => i.event_id), ["d", "a", "b", "late"]);
  // "late" runs past the boundary, and so may the all-day one, read in any zone.
  assert.deepEqual([...merged.carry].sort(), ["d||1970-01-01", "late|9900|"]);
  const next = mergePiece(
    [item("late", 9_900, "confirmed", 500), item("c", 11_000)],
    {
      start: 10_000,
      end: 20_000,
    },
    merged.carry,
    "UTC",
  );
  assert.deepEqual(next.items.map((i) => i.event_id), ["c"]);
  assert.deepEqual([...next.carry], []);
});

Deno.test("agenda requests one instance_view per piece of at most 40 days", () => {
  const start = Date.UTC(2026, 0, 1);
  const input = inputOf({
    start: at(start),
    end: at(start + 120 * DAY * 1000),
    "calendar-id": "cal/1",
    view: "list",
    "max-pieces": 128,
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

Deno.test("--start <day> alone is that whole day, even a future one", () => {
  const span = agendaSpan(inputOf({ start: date("2030-05-06"), "calendar-id": "primary" }));
  assert.deepEqual(span, { start: Date.UTC(2030, 4, 6) / 1000, end: Date.UTC(2030, 4, 7) / 1000 });
});

Deno.test("--view week covers Monday to Sunday of --start's week, --view day its day", () => {
  const input = inputOf({ start: date("2026-11-26"), "calendar-id": "primary", view: "week" });
  assert.deepEqual(viewDays(input), [
    "2026-11-23",
    "2026-11-24",
    "2026-11-25",
    "2026-11-26",
    "2026-11-27",
    "2026-11-28",
    "2026-11-29",
  ]);
  assert.deepEqual(agendaSpan(input), {
    start: Date.UTC(2026, 10, 23) / 1000,
    end: Date.UTC(2026, 10, 30) / 1000,
  });
  const day = inputOf({ start: at(Date.UTC(2026, 10, 26, 15)), "calendar-id": "p", view: "day" });
  assert.deepEqual(viewDays(day), ["2026-11-26"]);
  assert.throws(
    () =>
      agenda.validate!(inputOf({
        start: date("2026-11-26"),
        end: date("2026-11-27", "--end"),
        "calendar-id": "primary",
        view: "week",
      })),
    (e: unknown) => e instanceof ValidationError && e.param === "--end",
  );
});

/** The input of a 60-day list (two pieces) from `start` (Unix seconds). */
const sixtyDays = (start: number, ctx: ReturnType<typeof createTestContext>) =>
  inputOf({
    start: at(start * 1000),
    end: at((start + 60 * DAY) * 1000),
    "calendar-id": "primary",
    view: "list",
  }, { ctx });

Deno.test("agenda streams the pieces in order, without boundary duplicates, in hark's JSON", async () => {
  const start = Date.UTC(2026, 0, 1) / 1000;
  const boundary = start + 30 * DAY;
  const client = new FakeClient(async (r) => {
    const from = Number(r.query!.start_time);
    // The first piece answers last: the output must still come in order.
    if (from === start) await new Promise((resolve) => setTimeout(resolve, 20));
    return {
      items: [item(`e${from}`, from + 10), item("boundary", boundary - 60, "confirmed", 600)],
    };
  });
  const ctx = createTestContext();
  const input = sixtyDays(start, ctx);
  const batches: string[][] = [];
  for await (const batch of agenda.stream!(input, client)) {
    batches.push(batch.map((row) => row.event_id as string));
  }
  assert.deepEqual(batches, [[`e${start}`, "boundary"], [`e${boundary}`]]);
  const rows = await collect(agenda.stream!(input, client));
  assert.equal(
    rows[0].start_time,
    new Date((start + 10) * 1000).toISOString().replace(".000Z", "+00:00"),
  );
  assert.equal(rows[0].all_day, false);
  assert.ok(ctx.statuses.includes("Reading the agenda: 2 of 2 pieces done"));
});

Deno.test("agenda hands memory back as each answer is shaped and each piece settles, before the pieces ahead are written", async () => {
  const start = Date.UTC(2026, 0, 1) / 1000;
  const client = new FakeClient(async (r) => {
    const from = Number(r.query!.start_time);
    // The first piece answers after the second one has settled.
    if (from === start) await new Promise((resolve) => setTimeout(resolve, 0));
    return { items: [item(`e${from}`, from + 10)] };
  });
  const ctx = createTestContext();
  const input = sixtyDays(start, ctx);
  const reclaimsAtFirstBatch: number[] = [];
  for await (const _ of agenda.stream!(input, client)) {
    reclaimsAtFirstBatch.push(ctx.reclaims.count);
  }
  // Both answers were shaped and both pieces settled (one reclaim each) before the first batch
  // was handed on.
  assert.deepEqual(reclaimsAtFirstBatch, [4, 4]);
});

Deno.test("agenda reads the halves of one dense piece at a time, and gives the same events", async () => {
  const start = Date.UTC(2026, 0, 1) / 1000;
  let halvesInFlight = 0;
  let most = 0;
  const client = new FakeClient(async (r) => {
    const from = Number(r.query!.start_time);
    const to = Number(r.query!.end_time);
    // Every 30-day piece holds "over 1,000 instances": only its 15-day halves are answered.
    if (to - from > 15 * DAY) throw new ApiError("too many instances", { apiCode: 193104 });
    most = Math.max(most, ++halvesInFlight);
    for (let i = 0; i < 3; i++) await Promise.resolve();
    halvesInFlight--;
    // An event crossing each half's end is in both answers.
    return { items: [item(`a${from}`, from + 10), item(`x${to}`, to - 60, "confirmed", 7200)] };
  });
  const input = inputOf({
    start: at(start * 1000),
    end: at((start + 120 * DAY) * 1000),
    "calendar-id": "primary",
    view: "list",
    "max-pieces": 128,
  });
  const rows = (await collect(agenda.stream!(input, client))).map((r) => r.event_id);
  assert.equal(most, 1);
  const expected = Array.from({ length: 8 }, (_, i) => {
    const from = start + i * 15 * DAY;
    return [`a${from}`, `x${from + 15 * DAY}`];
  }).flat();
  assert.deepEqual(rows, expected);
});

Deno.test("agenda stops at an error that is not about the span", async () => {
  const client = new FakeClient(() => {
    throw new ApiError("boom", { apiCode: 190002 });
  });
  const input = inputOf({
    start: at(0),
    end: at(60 * DAY * 1000, "--end"),
    "calendar-id": "primary",
    view: "list",
  });
  await assert.rejects(collect(agenda.stream!(input, client)), /boom/);
});

Deno.test("agenda draws a grid only for --view day or week", () => {
  assert.equal(agenda.render!(inputOf({ view: "list" })), undefined);
  const draw = agenda.render!(inputOf({ start: date("2026-11-23"), view: "day" }))!;
  const text = draw([{
    event_id: "e",
    summary: "Standup",
    start_time: "2026-11-23T09:00:00+00:00",
    end_time: "2026-11-23T09:30:00+00:00",
    all_day: false,
  }]);
  assert.match(text, /^Mon 2026-11-23 \(UTC\)/);
  assert.match(text, /09:00 │▌09:00 Standup/);
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

Deno.test("agenda --limit and --page-token: pages that cross piece boundaries give every event once", async () => {
  const start = Date.UTC(2026, 0, 1) / 1000;
  const client = new FakeClient((r) => {
    const from = Number(r.query!.start_time);
    const to = Number(r.query!.end_time);
    // Three events a piece, and one that crosses into the next piece (four pieces of 22.5 days).
    const items = [item(`a${from}`, from + 10), item(`b${from}`, from + 20)];
    items.push(item(`c${from}`, from + 30), item(`x${to - 60}`, to - 60, "confirmed", 7200));
    // The one that crossed into this piece from the one before is in its answer too.
    if (from > start) items.unshift(item(`x${from - 60}`, from - 60, "confirmed", 7200));
    return Promise.resolve({ items });
  });
  const values = {
    start: at(start * 1000),
    end: at((start + 90 * DAY) * 1000),
    "calendar-id": "primary",
    view: "list" as const,
    "max-pieces": 128,
  };
  const whole = (await collect(agenda.stream!(inputOf(values), client))).map((r) => r.event_id);
  assert.equal(whole.length, 16);
  assert.equal(new Set(whole).size, 16);
  const paged: unknown[] = [];
  const firstPieces: number[] = [];
  let token: string | undefined;
  do {
    const warnings: string[] = [];
    client.requests.length = 0;
    const input = inputOf({ ...values, limit: 5, "page-token": token }, { warnings });
    await agenda.validate!(input);
    const rows = await collect(agenda.stream!(input, client));
    assert.ok(rows.length <= 5);
    paged.push(...rows.map((r) => r.event_id));
    firstPieces.push(Number(client.requests[0].query!.start_time));
    token = /--page-token (\S+)/.exec(warnings.join("\n"))?.[1];
  } while (token !== undefined && paged.length < 100);
  assert.deepEqual(paged, whole);
  // A resumed page starts at the piece before its own (for what it carries), not at the first.
  assert.ok(firstPieces.slice(1).some((s) => s > start), `first pieces ${firstPieces}`);
});
