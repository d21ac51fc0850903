import assert from "node:assert/strict";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { calendars } from "./calendars.ts";
import { get } from "./get.ts";
import { rsvp } from "./rsvp.ts";

Deno.test("rsvp posts the answer, retry-safe, and returns what it answered", async () => {
  const input = inputOf({ "event-id": "e/1_0", status: "decline", "calendar-id": "primary" });
  const [request] = rsvp.requests(input);
  assert.equal(request.path, "/open-apis/calendar/v4/calendars/primary/events/e%2F1_0/reply");
  assert.deepEqual(request.body, { rsvp_status: "decline" });
  assert.ok(request.idempotencyKey);
  const client = new FakeClient(() => ({}));
  assert.deepEqual(await rsvp.run!(input, client), {
    calendar_id: "primary",
    event_id: "e/1_0",
    rsvp_status: "decline",
  });
});

Deno.test("get reads the event and every page of attendees, and shows hark's JSON", async () => {
  const client = new FakeClient((r) => {
    if (!r.path.endsWith("/attendees")) {
      return {
        event: {
          event_id: "e_0",
          start_time: { date: "2026-11-23" },
          end_time: { date: "2026-11-25" },
          create_time: "1795400000",
        },
      };
    }
    return r.query?.page_token
      ? { items: [{ user_id: "ou_2", rsvp_status: "accept" }], has_more: false }
      : { items: [{ user_id: "ou_1" }], has_more: true, page_token: "p2" };
  });
  const input = inputOf({ "event-id": "e_0", "calendar-id": "primary" });
  const result = await get.run!(input, client);
  assert.equal(client.requests.length, 3);
  assert.equal(client.requests[1].query!.user_id_type, "open_id");
  const out = get.output!(result, input) as Record<string, unknown>;
  assert.equal(out.start_time, "2026-11-23");
  assert.equal(out.end_time, "2026-11-24");
  assert.equal(out.all_day, true);
  assert.equal(out.kind, "one-off");
  assert.equal(out.create_time, "2026-11-23T02:13:20+00:00");
  const columns = get.columns as (i: typeof input) => { header: string; value: unknown }[];
  const cell = columns(input).find((c) => c.header === "ATTENDEES")!.value as (
    row: unknown,
  ) => string[];
  assert.deepEqual(cell(out), ["ou_1 (needs_action)", "ou_2 (accept)"]);
});

Deno.test("calendars follows pages within Lark's page sizes and marks the primary", async () => {
  const client = new FakeClient((r) =>
    r.query?.page_token
      ? { calendar_list: [{ calendar_id: "c2", type: "shared" }], has_more: false }
      : { calendar_list: [{ calendar_id: "c1", type: "primary" }], has_more: true, page_token: "t" }
  );
  const rows = await collect(
    calendars.stream!(inputOf({ limit: 5, "page-all": true, "max-pages": 10 }), client),
  );
  assert.deepEqual(rows.map((r) => [r.calendar_id, r.primary]), [["c1", true], ["c2", false]]);
  assert.equal(client.requests[0].query!.page_size, 1000);
  const limited = calendars.requests(inputOf({ limit: 5, "page-all": false }));
  assert.equal(limited[0].query!.page_size, 50);
});
