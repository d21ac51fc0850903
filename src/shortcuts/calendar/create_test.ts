import assert from "node:assert/strict";
import { ApiError, ValidationError } from "../../errors/mod.ts";
import { at, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { create } from "./create.ts";
import { parseAttendees } from "./_attendees.ts";

const START = Date.UTC(2026, 10, 25, 14);
const values = (extra = {}) => ({
  summary: "Review",
  start: at(START),
  end: at(START + 3600_000, "--end"),
  "attendee-ability": "can_see_others",
  "calendar-id": "primary",
  ...extra,
});
const EVENT = { event_id: "ev_1", summary: "Review", start_time: {}, end_time: {} };

Deno.test("parseAttendees() splits on commas and rejects an empty list", () => {
  assert.deepEqual(parseAttendees(" ou_1, ou_2,,ou_1 "), ["ou_1", "ou_2"]);
  assert.deepEqual(parseAttendees(undefined), []);
  assert.throws(
    () => parseAttendees(" , "),
    (e: unknown) => e instanceof ValidationError && e.param === "--attendees",
  );
  // A bidi control or zero-width space would disguise an id; Lark's ids are short.
  for (const bad of ["ou_1\u202e2", "ou_\u200b1", `ou_${"x".repeat(200)}`]) {
    assert.throws(
      () => parseAttendees(bad),
      (e: unknown) => e instanceof ValidationError && e.param === "--attendees",
    );
  }
});

Deno.test("create previews the event and the attendee call with an {event_id} placeholder", () => {
  const requests = create.requests(inputOf(values({ attendees: "ou_1", description: "d" })));
  assert.equal(requests.length, 2);
  assert.equal(requests[0].method, "POST");
  assert.equal(requests[0].path, "/open-apis/calendar/v4/calendars/primary/events");
  assert.ok(requests[0].idempotencyKey);
  assert.equal(requests[0].query!.idempotency_key, requests[0].idempotencyKey);
  assert.deepEqual(requests[0].body, {
    summary: "Review",
    attendee_ability: "can_see_others",
    description: "d",
    start_time: { timestamp: String(START / 1000), timezone: "UTC" },
    end_time: { timestamp: String(START / 1000 + 3600), timezone: "UTC" },
  });
  assert.equal(
    requests[1].path,
    "/open-apis/calendar/v4/calendars/primary/events/{event_id}/attendees",
  );
  assert.deepEqual(requests[1].query, { user_id_type: "open_id" });
  assert.deepEqual(requests[1].body, { attendees: [{ type: "user", user_id: "ou_1" }] });
  const many = Array.from({ length: 2001 }, (_, i) => `ou_${i}`).join(",");
  const batched = create.requests(inputOf(values({ attendees: many })));
  assert.deepEqual(
    batched.slice(1).map((r) => (r.body as { attendees: unknown[] }).attendees.length),
    [1000, 1000, 1],
  );
  const ability = create.requests(inputOf(values({ "attendee-ability": "none" })));
  assert.equal((ability[0].body as Record<string, unknown>).attendee_ability, "none");
});

Deno.test("create validate rejects an end that is not after the start", () => {
  assert.throws(() => create.validate!(inputOf(values({ end: at(START, "--end") }))), /--end/);
});

Deno.test("create adds attendees after creating the event", async () => {
  const client = new FakeClient((r) =>
    r.path.endsWith("/attendees") ? { attendees: [{ user_id: "ou_1" }] } : { event: EVENT }
  );
  const result = await create.run!(inputOf(values({ attendees: "ou_1" })), client);
  assert.deepEqual(result, { event: EVENT, attendees: [{ user_id: "ou_1" }] });
  assert.equal(
    client.requests[1].path,
    "/open-apis/calendar/v4/calendars/primary/events/ev_1/attendees",
  );
});

Deno.test("create deletes the event when adding attendees fails, and says so", async () => {
  const client = new FakeClient((r) => {
    if (r.path.endsWith("/attendees")) {
      throw new ApiError("attendee not found", { apiCode: 190002 });
    }
    return r.method === "DELETE" ? {} : { event: EVENT };
  });
  await assert.rejects(
    create.run!(inputOf(values({ attendees: "ou_bad" })), client),
    (e: unknown) =>
      e instanceof ApiError && e.apiCode === 190002 &&
      /attendee not found; event "ev_1" was deleted again/.test(e.message),
  );
  assert.deepEqual(client.requests.map((r) => r.method), ["POST", "POST", "DELETE"]);
  assert.equal(client.requests[2].path, "/open-apis/calendar/v4/calendars/primary/events/ev_1");
  // Nobody is told of an event that never really existed.
  assert.deepEqual(client.requests[2].query, { need_notification: false });
});

Deno.test("create names the event that remains when the rollback fails too", async () => {
  const client = new FakeClient((r) => {
    if (r.method === "DELETE") throw new ApiError("delete failed");
    if (r.path.endsWith("/attendees")) throw new ApiError("attendee not found");
    return { event: EVENT };
  });
  await assert.rejects(
    create.run!(inputOf(values({ attendees: "ou_bad" })), client),
    /deleting event "ev_1" failed too, so it remains in calendar "primary"/,
  );
});

Deno.test("create whose answer holds no event says it was created; with attendees it fails, the key to retry", async () => {
  for (const answer of [null, "abc", { event: null }, { event: { summary: "no id" } }]) {
    const warnings: string[] = [];
    const input = inputOf(values({ "idempotency-key": "ev-key-1" }), { warnings });
    const result = await create.run!(input, new FakeClient(() => answer));
    const json = create.output!(result, input);
    assert.deepEqual(json, {
      summary: "Review",
      start_time: "2026-11-25T14:00:00+00:00",
      end_time: "2026-11-25T15:00:00+00:00",
      all_day: false,
      event_timezone: "UTC",
      attendee_ability: "can_see_others",
      attendees: [],
    }, JSON.stringify(answer));
    assert.deepEqual(warnings, [
      "The event was created (the service accepted it), but the service's answer holds no " +
      "event, so its id is unknown; running the command again with --idempotency-key " +
      "ev-key-1 returns it without creating a second one",
    ]);
    // With attendees to invite, the command is not done: it fails, saying what happened.
    const client = new FakeClient(() => answer);
    await assert.rejects(
      create.run!(inputOf(values({ attendees: "ou_1", "idempotency-key": "k" })), client),
      (e: unknown) =>
        e instanceof ApiError && e.type === "invalid_response" &&
        /The event was created .*its attendees were not invited/.test(e.message) &&
        /same idempotency key/.test(e.recovery.suggestion),
    );
    assert.deepEqual(client.requests.map((r) => r.method), ["POST"], "nothing more sent");
  }
});

Deno.test("create takes --duration instead of --end, and sends --location as the place's name", () => {
  const [request] = create.requests(
    inputOf(values({ end: undefined, duration: "1h30m", location: "Room 4" })),
  );
  assert.deepEqual(request.body, {
    summary: "Review",
    attendee_ability: "can_see_others",
    location: { name: "Room 4" },
    start_time: { timestamp: String(START / 1000), timezone: "UTC" },
    end_time: { timestamp: String(START / 1000 + 5400), timezone: "UTC" },
  });
});

Deno.test("create refuses --duration with --end, with a day-only --start, or neither given", () => {
  const refuses = (extra: Record<string, unknown>, pattern: RegExp, param: string) =>
    assert.throws(
      () => create.validate!(inputOf(values(extra))),
      (e: unknown) => e instanceof ValidationError && e.param === param && pattern.test(e.message),
    );
  refuses({ duration: "30m" }, /Cannot use --end and --duration together/, "--duration");
  refuses(
    {
      start: { kind: "date", date: "2026-11-25", text: "monday", param: "--start" },
      end: undefined,
      duration: "1h",
    },
    /Cannot use --duration with --start "monday"/,
    "--duration",
  );
  refuses({ end: undefined, duration: "90" }, /a number needs a unit/, "--duration");
  refuses({ end: undefined }, /Missing required flag --end \(or --duration\)/, "--end");
});

/** A service that knows one email, and records every call. */
function lookupService() {
  return new FakeClient((r) => {
    if (r.path.endsWith("/batch_get_id")) {
      const emails = (r.body as { emails: string[] }).emails;
      return {
        user_list: emails.map((email) =>
          email.toLowerCase() === "ann@example.com" ? { email, user_id: "ou_ann" } : { email }
        ),
      };
    }
    if (r.path.endsWith("/attendees")) return { attendees: [{ user_id: "ou_ann" }] };
    return { event: EVENT };
  });
}

Deno.test("create looks attendees' emails up as the bot before creating, and invites their open ids", async () => {
  const client = lookupService();
  await create.run!(inputOf(values({ attendees: "Ann@example.com,ou_2,ou_ann" })), client);
  const [lookup, made, invite] = client.requests;
  assert.equal(lookup.path, "/open-apis/contact/v3/users/batch_get_id");
  assert.deepEqual(lookup.query, { user_id_type: "open_id" });
  assert.deepEqual(lookup.body, { emails: ["Ann@example.com"] });
  assert.equal(lookup.identity, "bot");
  assert.equal(made.path, "/open-apis/calendar/v4/calendars/primary/events");
  assert.deepEqual(invite.body, {
    attendees: [{ type: "user", user_id: "ou_ann" }, { type: "user", user_id: "ou_2" }],
  });
});

Deno.test("create refuses an unknown email before anything is created, so nothing is rolled back", async () => {
  const client = lookupService();
  await assert.rejects(
    create.run!(inputOf(values({ attendees: "ann@example.com,bob@example.com" })), client),
    (e: unknown) =>
      e instanceof ValidationError && e.param === "--attendees" && e.code === 2 &&
      /No Lark user has the email "bob@example.com"/.test(e.message),
  );
  assert.deepEqual(client.requests.map((r) => r.method), ["POST"]);
  assert.ok(client.requests[0].path.endsWith("/batch_get_id"));
});

Deno.test("create previews the email lookup and names the open id each email stands for", () => {
  const requests = create.requests(inputOf(values({ attendees: "ann@example.com,ou_2" })));
  assert.equal(requests[0].path, "/open-apis/contact/v3/users/batch_get_id");
  assert.deepEqual(requests[2].body, {
    attendees: [
      { type: "user", user_id: "{open_id of ann@example.com}" },
      { type: "user", user_id: "ou_2" },
    ],
  });
});

Deno.test("create finds a calendar named by title before creating the event in it", async () => {
  const id = "feishu.cn_ops@group.calendar.feishu.cn";
  const client = new FakeClient((r) =>
    r.path.endsWith("/calendars")
      ? { calendar_list: [{ calendar_id: id, summary: "Ops" }], has_more: false }
      : { event: EVENT }
  );
  await create.run!(inputOf(values({ "calendar-id": "Ops" })), client);
  assert.deepEqual(client.requests.map((r) => `${r.method} ${r.path}`), [
    "GET /open-apis/calendar/v4/calendars",
    `POST /open-apis/calendar/v4/calendars/${encodeURIComponent(id)}/events`,
  ]);
});

Deno.test("create --rrule makes a recurring event; --room and oc_ ids invite rooms and chats", () => {
  const requests = create.requests(
    inputOf(values({ rrule: "RRULE:FREQ=WEEKLY;BYDAY=MO", attendees: "ou_1,oc_2", room: "omm_3" })),
  );
  assert.equal((requests[0].body as Record<string, unknown>).recurrence, "FREQ=WEEKLY;BYDAY=MO");
  assert.deepEqual((requests[1].body as Record<string, unknown>).attendees, [
    { type: "user", user_id: "ou_1" },
    { type: "chat", chat_id: "oc_2" },
    { type: "resource", room_id: "omm_3" },
  ]);
  assert.throws(
    () => create.validate!(inputOf(values({ rrule: "FREQ=WEEKLY;COUNT=2;UNTIL=20270101" }))),
    (e: unknown) => e instanceof ValidationError && e.param === "--rrule",
  );
  assert.throws(
    () => create.validate!(inputOf(values({ room: "oc_2" }))),
    (e: unknown) => e instanceof ValidationError && e.param === "--room",
  );
});
