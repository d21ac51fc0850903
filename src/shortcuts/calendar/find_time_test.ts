import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { createTestContext } from "../../testing/test_context.ts";
import { at, FakeClient, inputOf } from "../_fake_client.ts";
import { bookingKey, findTime, type FindTimeResult, searchOf, windowOf } from "./find_time.ts";

// Monday 2026-11-23 08:00 UTC.
const NOW = Date.UTC(2026, 10, 23, 8);
const values = (extra = {}) => ({
  attendees: "ou_1,ou_2",
  duration: "30m",
  "working-hours": "09:00-18:00",
  limit: 3,
  summary: "Meeting",
  "calendar-id": "primary",
  ...extra,
});
const input = (extra = {}, identity: "user" | "bot" = "bot") =>
  inputOf(values(extra), { ctx: createTestContext({ now: NOW }), identity });

Deno.test("the default window runs from now to the end of the 5th working day", () => {
  assert.deepEqual(windowOf(input()), { start: NOW, end: Date.UTC(2026, 10, 28) });
  assert.deepEqual(windowOf(input({ "include-weekends": true })), {
    start: NOW,
    end: Date.UTC(2026, 10, 28),
  });
  const from = Date.UTC(2026, 10, 27, 12);
  // Friday + 4 working days: Thursday of the next week.
  assert.deepEqual(windowOf(input({ start: at(from) })), {
    start: from,
    end: Date.UTC(2026, 11, 4),
  });
  assert.throws(
    () => windowOf(input({ end: at(NOW - 1, "--end") })),
    (e: unknown) => e instanceof ValidationError && e.param === "--end",
  );
});

Deno.test("searchOf() checks the duration, the working hours and the limit", () => {
  assert.equal(searchOf(input()).minutes, 30);
  for (
    const [extra, flag] of [
      [{ duration: "half an hour" }, "--duration"],
      [{ "working-hours": "9-5" }, "--working-hours"],
      [{ limit: 0 }, "--limit"],
      [{ attendees: "," }, "--attendees"],
    ] as const
  ) {
    assert.throws(
      () => searchOf(input(extra)),
      (e: unknown) => e instanceof ValidationError && e.param === flag,
      flag,
    );
  }
});

Deno.test("bookingKey() is the same for the same request, later the same day, and UUID-shaped", () => {
  const a = bookingKey(input(), searchOf(input()));
  const later = inputOf(values({ attendees: "ou_2,ou_1" }), {
    ctx: createTestContext({ now: NOW + 3600_000 }),
  });
  assert.equal(bookingKey(later, searchOf(later)), a);
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.notEqual(bookingKey(input({ summary: "Other" }), searchOf(input())), a);
});

Deno.test("find-time asks free/busy per person, at most 10 at once, and finds common slots", async () => {
  let inFlight = 0;
  let peak = 0;
  const client = new FakeClient(async (r) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight--;
    const user = (r.body as { user_id: string }).user_id;
    // ou_1 is busy 09:00-10:00 on Monday; everyone else is free.
    return {
      freebusy_list: user === "ou_1"
        ? [{ start_time: "2026-11-23T09:00:00Z", end_time: "2026-11-23T10:00:00Z" }]
        : [],
    };
  });
  const many = Array.from({ length: 25 }, (_, i) => `ou_${i + 1}`).join(",");
  const result = await findTime.run!(input({ attendees: many }), client) as FindTimeResult;
  assert.equal(client.requests.length, 25);
  assert.ok(peak <= 10 && peak > 1, `peak ${peak}`);
  assert.deepEqual(result.slots.map((s) => s.start_time), [
    "2026-11-23T10:00:00+00:00",
    "2026-11-23T10:30:00+00:00",
    "2026-11-23T11:00:00+00:00",
  ]);
});

Deno.test("find-time warns when there is no slot, and --create then fails, booking nothing", async () => {
  const busy = new FakeClient(() => ({
    freebusy_list: [{ start_time: "2026-11-23T00:00:00Z", end_time: "2026-12-01T00:00:00Z" }],
  }));
  const warnings: string[] = [];
  const plain = inputOf(values(), {
    ctx: createTestContext({ now: NOW }),
    identity: "bot",
    warnings,
  });
  const result = await findTime.run!(plain, busy) as FindTimeResult;
  assert.deepEqual(result.slots, []);
  assert.match(warnings[0], /^No free 30m slot between 2026-11-23 08:00 and 2026-11-28 00:00: /);
  await assert.rejects(
    findTime.run!(input({ create: true }), busy),
    (e: unknown) => e instanceof Error && "type" in e && e.type === "no_slot",
  );
  assert.ok(busy.requests.every((r) => r.path.endsWith("/freebusy/list")));
});

Deno.test("find-time --create books the first slot with the attendees and a stable key", async () => {
  const client = new FakeClient((r) => {
    if (r.path.endsWith("/freebusy/list")) return { freebusy_list: [] };
    if (r.path.endsWith("/attendees")) {
      return { attendees: [{ user_id: "ou_1" }, { user_id: "ou_2" }] };
    }
    return { event: { event_id: "ev_0", ...(r.body as object) } };
  });
  const result = await findTime.run!(input({ create: true }), client) as FindTimeResult;
  const book = client.requests.find((r) => r.path.endsWith("/events"))!;
  assert.equal(book.query!.idempotency_key, bookingKey(input(), searchOf(input())));
  assert.deepEqual((book.body as Record<string, unknown>).start_time, {
    timestamp: String(Date.UTC(2026, 10, 23, 9) / 1000),
    timezone: "UTC",
  });
  assert.equal(result.booked!.event.event_id, "ev_0");
  assert.equal(result.booked!.attendees.length, 2);
});
