import assert from "node:assert/strict";
import { type TestClient, withSandbox } from "../test_client.ts";

const DAY = 86_400;
const START_DAY = "2026-03-02";
const ANCHOR = Date.parse(`${START_DAY}T00:00:00Z`) / 1000;
const ALL = [
  "calendar:calendar.event:read",
  "calendar:calendar.event:create",
  "calendar:calendar.event:update",
  "calendar:calendar.event:delete",
  "calendar:calendar.event:reply",
  "calendar:calendar.free_busy:read",
  "offline_access",
];
const EVENTS = "/open-apis/calendar/v4/calendars/primary/events";

function view(client: TestClient, token: string, from: number, to: number, calendar = "primary") {
  return client.send(
    "GET",
    `/open-apis/calendar/v4/calendars/${calendar}/events/instance_view?start_time=${from}&end_time=${to}`,
    { token },
  );
}

/** A one-hour event at `start` in the caller's primary calendar; returns its event. */
async function createEvent(
  client: TestClient,
  token: string,
  start: number,
  extra: Record<string, unknown> = {},
) {
  const answer = await client.json("POST", EVENTS, {
    summary: "Review",
    start_time: { timestamp: String(start) },
    end_time: { timestamp: String(start + 3600) },
    ...extra,
  }, token);
  assert.equal(answer.body.code, 0, answer.text);
  return answer.body.data.event;
}

Deno.test("created events show in instance_view, take attendees and can be deleted", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(ALL);
    const base = "/open-apis/calendar/v4/calendars/primary/events";
    const start = ANCHOR + 3 * DAY + 7 * 3600 + 123;
    const created = await client.json("POST", base, {
      summary: "Sandbox planning",
      description: "agenda",
      start_time: { timestamp: String(start) },
      end_time: { timestamp: String(start + 1800) },
    }, token);
    assert.equal(created.status, 200);
    const event = created.body.data.event;
    assert.equal(event.summary, "Sandbox planning");
    const ids = async () =>
      (await view(client, token, start - 60, start + 60)).body.data.items.map(
        (i: { event_id: string }) => i.event_id,
      );
    assert.ok((await ids()).includes(event.event_id));

    const attendee = sandbox.users[5];
    const added = await client.json(
      "POST",
      `${base}/${event.event_id}/attendees?user_id_type=open_id`,
      { attendees: [{ type: "user", user_id: attendee.open_id }] },
      token,
    );
    assert.equal(added.body.code, 0);
    assert.equal(added.body.data.attendees[0].user_id, attendee.open_id);
    const unknown = await client.json(
      "POST",
      `${base}/${event.event_id}/attendees?user_id_type=open_id`,
      { attendees: [{ type: "user", user_id: "ou_nobody" }] },
      token,
    );
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 190002);
    assert.match(unknown.body.msg, /ou_nobody/);

    const stored = await client.send("GET", `/sandbox/events?open_id=${sandbox.users[0].open_id}`);
    assert.equal(stored.body.length, 1);
    assert.equal(stored.body[0].attendees.length, 1);

    const deleted = await client.send("DELETE", `${base}/${event.event_id}`, { token });
    assert.deepEqual(deleted.body, { code: 0, msg: "success", data: {} });
    assert.ok(!(await ids()).includes(event.event_id));
    // A deleted event is Lark's 403 193003 "event is deleted", for a delete retried after its
    // answer was lost as for any other call; an id that never existed is 404 193001.
    const again = await client.send("DELETE", `${base}/${event.event_id}`, { token });
    assert.equal(again.status, 403);
    assert.equal(again.body.code, 193003);
    assert.match(again.body.msg, /event is deleted/);
    const read = await client.send("GET", `${base}/${event.event_id}`, { token });
    assert.equal(read.body.code, 193003);
    const patched = await client.json(
      "PATCH",
      `${base}/${event.event_id}`,
      { summary: "x" },
      token,
    );
    assert.equal(patched.body.code, 193003);
    const never = await client.send("GET", `${base}/nothing_0`, { token });
    assert.equal(never.status, 404);
    assert.equal(never.body.code, 193001);
  });
});

Deno.test("event creation validates times and honours idempotency_key", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(ALL);
    const base = "/open-apis/calendar/v4/calendars/primary/events";
    const backwards = await client.json("POST", base, {
      summary: "x",
      start_time: { timestamp: String(ANCHOR + 3600) },
      end_time: { timestamp: String(ANCHOR) },
    }, token);
    assert.equal(backwards.status, 400);
    assert.equal(backwards.body.code, 190002);
    const notJson = await client.send("POST", base, {
      token,
      headers: { "content-type": "application/json" },
      body: "{",
    });
    assert.equal(notJson.body.code, 9499);
    const body = {
      summary: "weekly",
      start_time: { timestamp: String(ANCHOR) },
      end_time: { timestamp: String(ANCHOR + 3600) },
      recurrence: "FREQ=WEEKLY;COUNT=3",
    };
    const a = await client.json("POST", `${base}?idempotency_key=k1`, body, token);
    const b = await client.json("POST", `${base}?idempotency_key=k1`, body, token);
    assert.equal(a.body.data.event.event_id, b.body.data.event.event_id);
    const items = (await view(client, token, ANCHOR, ANCHOR + 40 * DAY)).body.data.items.filter(
      (i: { recurring_event_id?: string }) => i.recurring_event_id === a.body.data.event.event_id,
    );
    assert.equal(items.length, 3);
    // Deleted since, the key's event is not created again: the replay says it is deleted.
    const path = `${base}/${a.body.data.event.event_id}`;
    assert.equal((await client.send("DELETE", path, { token })).body.code, 0);
    const replay = await client.json("POST", `${base}?idempotency_key=k1`, body, token);
    assert.equal(replay.status, 403);
    assert.equal(replay.body.code, 193003);
    const fresh = await client.json("POST", `${base}?idempotency_key=k2`, body, token);
    assert.equal(fresh.body.code, 0);
    assert.notEqual(fresh.body.data.event.event_id, a.body.data.event.event_id);
  });
});

Deno.test("create stores Asia/Shanghai without a time zone, UTC for all-day, and the defaults", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(ALL);
    const timed = await createEvent(client, token, ANCHOR);
    assert.deepEqual(timed.start_time, { timestamp: String(ANCHOR), timezone: "Asia/Shanghai" });
    assert.equal(timed.attendee_ability, "none");
    assert.equal(timed.visibility, "default");
    assert.equal(timed.free_busy_status, "busy");
    assert.equal(timed.status, "confirmed");
    assert.match(timed.event_id, /^[0-9a-f-]{36}_0$/);
    const zoned = await createEvent(client, token, ANCHOR, {
      start_time: { timestamp: String(ANCHOR), timezone: "Europe/Berlin" },
      end_time: { timestamp: String(ANCHOR + 60), timezone: "Europe/Berlin" },
      attendee_ability: "can_see_others",
      location: { name: "Room 1" },
      reminders: [{ minutes: 5 }],
      vchat: { vc_type: "no_meeting" },
    });
    assert.equal(zoned.start_time.timezone, "Europe/Berlin");
    assert.equal(zoned.attendee_ability, "can_see_others");
    assert.deepEqual(zoned.location, { name: "Room 1" });
    const got = await client.send("GET", `${EVENTS}/${zoned.event_id}`, { token });
    assert.deepEqual(got.body.data.event.reminders, [{ minutes: 5 }]);
    assert.deepEqual(got.body.data.event.vchat, { vc_type: "no_meeting" });
    const allDay = await createEvent(client, token, 0, {
      start_time: { date: "2026-03-05" },
      end_time: { date: "2026-03-07" },
    });
    assert.deepEqual(allDay.end_time, { date: "2026-03-07", timezone: "UTC" });
    const items = (await view(client, token, ANCHOR + 3 * DAY, ANCHOR + 6 * DAY)).body.data.items;
    assert.ok(items.some((i: { event_id: string }) => i.event_id === allDay.event_id));
    // The end date is exclusive: the event is over before 2026-03-07 begins.
    const after = (await view(client, token, ANCHOR + 5 * DAY, ANCHOR + 6 * DAY)).body.data.items;
    assert.ok(!after.some((i: { event_id: string }) => i.event_id === allDay.event_id));
  });
});

Deno.test("create refuses wrong shapes and unknown fields with 190002 naming the field", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(ALL);
    const good = {
      start_time: { timestamp: String(ANCHOR) },
      end_time: { timestamp: String(ANCHOR + 60) },
    };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...good, colour: 1 }, /colour is not a known field/],
      [{ ...good, summary: 7 }, /summary must be a string/],
      [{ ...good, attendee_ability: "all" }, /attendee_ability must be one of/],
      [{ ...good, reminders: [{ minutes: 1.5 }] }, /reminders\[0\]\.minutes must be an integer/],
      [{ start_time: good.start_time }, /end_time is required/],
      [{ ...good, start_time: { timestamp: 1 } }, /start_time\.timestamp must be a string/],
      [{ ...good, start_time: { timestamp: "1", date: "2026-01-01" } }, /not both/],
      [{ ...good, start_time: { timestamp: String(ANCHOR), timezone: "Mars/Base" } }, /time zone/],
      [{ ...good, end_time: { date: "2026-03-03" } }, /both be timestamps or both be dates/],
      [{ start_time: { date: "2026-03-03" }, end_time: { date: "2026-03-03" } }, /exclusive/],
      [{ start_time: { date: "2026-02-30" }, end_time: { date: "2026-03-03" } }, /YYYY-MM-DD/],
      [{ ...good, recurrence: "FREQ=WEEKLY;COUNT=2;UNTIL=20260401" }, /COUNT and UNTIL/],
      [{ ...good, recurrence: "FREQ=YEARLY" }, /FREQ must be DAILY or WEEKLY/],
      [{ ...good, vchat: { vc_type: "zoom" } }, /vchat\.vc_type must be one of/],
    ];
    for (const [body, message] of cases) {
      const answer = await client.json("POST", EVENTS, body, token);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.code, 190002, JSON.stringify(body));
      assert.match(answer.body.msg, message);
    }
    const array = await client.send("POST", EVENTS, {
      token,
      headers: { "content-type": "application/json" },
      body: "[]",
    });
    assert.equal(array.body.code, 9499);
  });
});

Deno.test("get answers the event, its attendees on request, and 193001 for a stranger's id", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(ALL);
    const event = await createEvent(client, token, ANCHOR, { attendee_ability: "can_see_others" });
    const guests = sandbox.users.slice(1, 4).map((u) => ({ type: "user", user_id: u.open_id }));
    await client.json(
      "POST",
      `${EVENTS}/${event.event_id}/attendees`,
      { attendees: guests },
      token,
    );
    const plain = await client.send("GET", `${EVENTS}/${event.event_id}`, { token });
    assert.equal(plain.body.data.event.attendees, undefined);
    assert.equal(plain.body.data.event.event_organizer.user_id, sandbox.users[0].open_id);
    assert.equal(plain.body.data.event.self_rsvp_status, "accept");
    const full = await client.send(
      "GET",
      `${EVENTS}/${event.event_id}?need_attendee=true&max_attendee_num=2`,
      { token },
    );
    assert.equal(full.body.data.event.attendees.length, 2);
    assert.equal(full.body.data.event.has_more_attendee, true);
    const byUnion = await client.send(
      "GET",
      `${EVENTS}/${event.event_id}?need_attendee=true&user_id_type=union_id`,
      { token },
    );
    assert.equal(byUnion.body.data.event.attendees[0].user_id, sandbox.users[1].union_id);
    const stranger = await client.userToken(ALL, { open_id: sandbox.users[9].open_id });
    const hidden = await client.send("GET", `${EVENTS}/${event.event_id}`, { token: stranger });
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.code, 193001);
    const badFlag = await client.send("GET", `${EVENTS}/${event.event_id}?need_attendee=yes`, {
      token,
    });
    assert.equal(badFlag.body.code, 190002);
  });
});

Deno.test("patch changes only the fields sent; start and end go together", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(ALL);
    const event = await createEvent(client, token, ANCHOR, { description: "keep me" });
    const path = `${EVENTS}/${event.event_id}`;
    const patched = await client.json("PATCH", path, { summary: "Renamed" }, token);
    assert.equal(patched.body.code, 0);
    assert.equal(patched.body.data.event.summary, "Renamed");
    assert.equal(patched.body.data.event.description, "keep me");
    assert.deepEqual(patched.body.data.event.start_time, event.start_time);
    // An empty string leaves the field as it is.
    const empty = await client.json("PATCH", path, { description: "" }, token);
    assert.equal(empty.body.data.event.description, "keep me");
    const moved = await client.json("PATCH", path, {
      start_time: { timestamp: String(ANCHOR + DAY) },
      end_time: { timestamp: String(ANCHOR + DAY + 60) },
      need_notification: false,
    }, token);
    assert.equal(moved.body.data.event.start_time.timestamp, String(ANCHOR + DAY));
    const half = await client.json("PATCH", path, {
      start_time: { timestamp: String(ANCHOR) },
    }, token);
    assert.equal(half.body.code, 190002);
    assert.match(half.body.msg, /together/);
    const unknown = await client.json("PATCH", path, { title: "x" }, token);
    assert.equal(unknown.body.code, 190002);
    const got = await client.send("GET", path, { token });
    assert.equal(got.body.data.event.summary, "Renamed");
    const missing = await client.json("PATCH", `${EVENTS}/nope_0`, { summary: "x" }, token);
    assert.equal(missing.body.code, 193001);
  });
});

Deno.test("an attendee sees the event with their RSVP; a reply changes the event, list, view and free/busy", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const organizer = await client.userToken(ALL);
    const guestUser = sandbox.users[4];
    const guest = await client.userToken(ALL, { open_id: guestUser.open_id });
    const start = ANCHOR + 20 * DAY + 3 * 3600 + 17;
    const event = await createEvent(client, organizer, start, {
      attendee_ability: "can_see_others",
    });
    const added = await client.json("POST", `${EVENTS}/${event.event_id}/attendees`, {
      attendees: [{ type: "user", user_id: guestUser.open_id }],
    }, organizer);
    assert.equal(added.body.data.attendees[0].rsvp_status, "needs_action");
    const guestView = async () =>
      (await view(client, guest, start - 60, start + 60)).body.data.items.find((
        i: { event_id: string },
      ) => i.event_id === event.event_id);
    assert.equal((await guestView()).self_rsvp_status, "needs_action");
    assert.equal((await guestView()).organizer_calendar_id, event.organizer_calendar_id);
    const busyAt = async () => {
      const answer = await client.json("POST", "/open-apis/calendar/v4/freebusy/list", {
        time_min: new Date((start - 60) * 1000).toISOString(),
        time_max: new Date((start + 60) * 1000).toISOString(),
        user_id: guestUser.open_id,
      }, organizer);
      return answer.body.data.freebusy_list.length;
    };
    assert.equal(await busyAt(), 1);

    const reply = await client.json("POST", `${EVENTS}/${event.event_id}/reply`, {
      rsvp_status: "decline",
    }, guest);
    assert.deepEqual(reply.body, { code: 0, msg: "success", data: {} });
    assert.equal((await guestView()).self_rsvp_status, "decline");
    assert.equal(await busyAt(), 0);
    const asGuest = await client.send("GET", `${EVENTS}/${event.event_id}`, { token: guest });
    assert.equal(asGuest.body.data.event.self_rsvp_status, "decline");
    const list = await client.send("GET", `${EVENTS}/${event.event_id}/attendees`, {
      token: organizer,
    });
    assert.equal(list.body.data.items[0].rsvp_status, "decline");
    await client.json("POST", `${EVENTS}/${event.event_id}/reply`, {
      rsvp_status: "accept",
    }, guest);
    assert.equal(await busyAt(), 1);

    const notAttendee = await client.json("POST", `${EVENTS}/${event.event_id}/reply`, {
      rsvp_status: "accept",
    }, organizer);
    assert.equal(notAttendee.body.code, 190002);
    const badStatus = await client.json("POST", `${EVENTS}/${event.event_id}/reply`, {
      rsvp_status: "maybe",
    }, guest);
    assert.equal(badStatus.body.code, 190002);
  });
});

Deno.test("an attendee may change only their own free/busy, visibility, colour and reminders", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const organizer = await client.userToken(ALL);
    const guestUser = sandbox.users[6];
    const guest = await client.userToken(ALL, { open_id: guestUser.open_id });
    const event = await createEvent(client, organizer, ANCHOR + 5 * DAY);
    await client.json("POST", `${EVENTS}/${event.event_id}/attendees`, {
      attendees: [{ type: "user", user_id: guestUser.open_id }],
    }, organizer);
    const path = `${EVENTS}/${event.event_id}`;
    const rename = await client.json("PATCH", path, { summary: "Mine now" }, guest);
    assert.equal(rename.body.code, 190002);
    assert.match(rename.body.msg, /only the organizer/);
    const free = await client.json("PATCH", path, { free_busy_status: "free" }, guest);
    assert.equal(free.body.data.event.free_busy_status, "free");
    const organizerView = await client.send("GET", path, { token: organizer });
    assert.equal(organizerView.body.data.event.free_busy_status, "busy");
    const deleted = await client.send("DELETE", path, { token: guest });
    assert.equal(deleted.body.code, 190002);
    // Attendees cannot see the others or invite with the default attendee_ability "none".
    const invite = await client.json("POST", `${path}/attendees`, {
      attendees: [{ type: "user", user_id: sandbox.users[7].open_id }],
    }, guest);
    assert.equal(invite.body.code, 190002);
    const seen = await client.send("GET", `${path}/attendees`, { token: guest });
    assert.deepEqual(
      seen.body.data.items.map((a: { user_id: string }) => a.user_id),
      [guestUser.open_id],
    );
  });
});

Deno.test("one instance of a series can be read, changed and cancelled apart from the series", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(ALL);
    const series = await createEvent(client, token, ANCHOR + 9 * 3600, {
      recurrence: "FREQ=DAILY;COUNT=5",
    });
    assert.equal(series.recurrence, "FREQ=DAILY;COUNT=5");
    const base = series.event_id.replace(/_0$/, "");
    const second = `${base}_${ANCHOR + 9 * 3600 + DAY}`;
    const third = `${base}_${ANCHOR + 9 * 3600 + 2 * DAY}`;
    const got = await client.send("GET", `${EVENTS}/${second}`, { token });
    assert.equal(got.body.data.event.event_id, second);
    assert.equal(got.body.data.event.recurring_event_id, series.event_id);
    assert.equal(got.body.data.event.start_time.timestamp, String(ANCHOR + 9 * 3600 + DAY));
    assert.equal(got.body.data.event.is_exception, false);
    const notInstance = await client.send("GET", `${EVENTS}/${base}_${ANCHOR}`, { token });
    assert.equal(notInstance.body.code, 193001);

    const changed = await client.json("PATCH", `${EVENTS}/${second}`, {
      summary: "Moved standup",
      start_time: { timestamp: String(ANCHOR + 11 * 3600 + DAY) },
      end_time: { timestamp: String(ANCHOR + 12 * 3600 + DAY) },
    }, token);
    assert.equal(changed.body.code, 0, changed.text);
    assert.equal(changed.body.data.event.summary, "Moved standup");
    assert.equal(changed.body.data.event.is_exception, true);
    const recurrence = await client.json("PATCH", `${EVENTS}/${second}`, {
      recurrence: "FREQ=DAILY",
    }, token);
    assert.equal(recurrence.body.code, 190002);

    const cancel = await client.send("DELETE", `${EVENTS}/${third}?need_notification=false`, {
      token,
    });
    assert.equal(cancel.body.code, 0);
    const items = (await view(client, token, ANCHOR, ANCHOR + 6 * DAY)).body.data.items.filter(
      (i: { recurring_event_id?: string }) => i.recurring_event_id === series.event_id,
    );
    assert.equal(items.length, 5);
    const byId = new Map(items.map((i: { event_id: string }) => [i.event_id, i]));
    assert.equal((byId.get(second) as { summary: string }).summary, "Moved standup");
    assert.equal((byId.get(third) as { status: string }).status, "cancelled");
    assert.equal(
      (items[0] as { summary: string }).summary,
      "Review",
      "the other instances keep the series' fields",
    );
    assert.equal((await client.send("GET", `${EVENTS}/${third}`, { token })).body.code, 193003);

    const wholeSeries = await client.send("DELETE", `${EVENTS}/${series.event_id}`, { token });
    assert.equal(wholeSeries.body.code, 0);
    const left = (await view(client, token, ANCHOR, ANCHOR + 6 * DAY)).body.data.items.filter(
      (i: { recurring_event_id?: string }) => i.recurring_event_id === series.event_id,
    );
    assert.equal(left.length, 0);
    // Every instance of a deleted series is deleted too.
    assert.equal((await client.send("GET", `${EVENTS}/${second}`, { token })).body.code, 193003);
    const badFlag = await client.send(
      "DELETE",
      `${EVENTS}/${series.event_id}?need_notification=no`,
      {
        token,
      },
    );
    assert.equal(badFlag.body.code, 190002);
  });
});

Deno.test("attendees: at most 1000 per request, paged list, batch_delete by id or by user", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(ALL);
    const event = await createEvent(client, token, ANCHOR + 2 * DAY);
    const path = `${EVENTS}/${event.event_id}/attendees`;
    const tooMany = await client.json("POST", path, {
      attendees: Array.from(
        { length: 1001 },
        () => ({ type: "user", user_id: sandbox.users[1].open_id }),
      ),
    }, token);
    assert.equal(tooMany.body.code, 190002);
    assert.match(tooMany.body.msg, /at most 1000/);
    const users = sandbox.users.slice(1, 26);
    const added = await client.json("POST", path, {
      attendees: [
        ...users.map((u) => ({ type: "user", user_id: u.open_id })),
        { type: "chat", chat_id: sandbox.chats[0].chat_id },
        { type: "third_party", third_party_email: "guest@example.org" },
      ],
    }, token);
    assert.equal(added.body.data.attendees.length, 27);
    assert.match(added.body.data.attendees[0].attendee_id, /^user_\d{19}$/);
    const chat = added.body.data.attendees[25];
    assert.equal(chat.display_name, sandbox.chats[0].name);
    assert.ok(Array.isArray(chat.chat_members));
    assert.equal(added.body.data.attendees[26].is_external, true);
    // Adding someone again keeps their record.
    const again = await client.json("POST", path, {
      attendees: [{ type: "user", user_id: users[0].open_id }],
    }, token);
    assert.equal(
      again.body.data.attendees[0].attendee_id,
      added.body.data.attendees[0].attendee_id,
    );
    const room = await client.json("POST", path, {
      attendees: [{ type: "resource", room_id: "omm_1" }],
    }, token);
    assert.equal(room.body.code, 190002);

    const seen: string[] = [];
    let pageToken = "";
    do {
      const page = await client.send(
        "GET",
        `${path}?page_size=10${pageToken ? `&page_token=${pageToken}` : ""}`,
        { token },
      );
      assert.equal(page.body.code, 0);
      assert.ok(page.body.data.items.length <= 10);
      seen.push(...page.body.data.items.map((a: { attendee_id: string }) => a.attendee_id));
      pageToken = page.body.data.has_more ? page.body.data.page_token : "";
    } while (pageToken);
    assert.equal(seen.length, 27);
    assert.equal((await client.send("GET", `${path}?page_size=101`, { token })).body.code, 190002);

    const remove = (body: unknown) =>
      client.json("POST", `${path}/batch_delete`, body, token).then((r) => r.body);
    assert.equal((await remove({ attendee_ids: [seen[0]] })).code, 0);
    assert.equal(
      (await remove({ delete_ids: [{ type: "user", user_id: users[1].open_id }] })).code,
      0,
    );
    assert.equal((await remove({ attendee_ids: [seen[0]] })).code, 190002);
    assert.equal((await remove({})).code, 190002);
    assert.equal(
      (await remove({ attendee_ids: Array.from({ length: 501 }, (_, i) => `user_${i}`) })).code,
      190002,
    );
    const list = await client.send("GET", `${path}?page_size=100`, { token });
    assert.equal(list.body.data.items.length, 25);
    // A removed user no longer has the event in their calendar.
    const removed = await client.userToken(ALL, { open_id: users[0].open_id });
    const items = (await view(client, removed, ANCHOR + 2 * DAY - 60, ANCHOR + 2 * DAY + 60)).body
      .data.items;
    assert.ok(!items.some((i: { event_id: string }) => i.event_id === event.event_id));
  });
});

Deno.test("a bot organizes events in its own calendar and invites users into theirs", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const bot = await client.tenantToken();
    const event = await createEvent(client, bot, ANCHOR + 4 * DAY);
    assert.match(event.event_organizer.user_id, /^ou_[0-9a-f]{32}$/);
    assert.equal(event.event_organizer.display_name, sandbox.appId);
    await client.json("POST", `${EVENTS}/${event.event_id}/attendees`, {
      attendees: [{ type: "user", user_id: sandbox.users[8].open_id }],
    }, bot);
    const user = await client.userToken(ALL, { open_id: sandbox.users[8].open_id });
    const items = (await view(client, user, ANCHOR + 4 * DAY - 60, ANCHOR + 4 * DAY + 60)).body
      .data.items;
    assert.ok(items.some((i: { event_id: string }) => i.event_id === event.event_id));
    const reply = await client.json("POST", `${EVENTS}/${event.event_id}/reply`, {
      rsvp_status: "tentative",
    }, user);
    assert.equal(reply.body.code, 0);
  });
});

Deno.test("a seeded event waiting for an answer can be answered: its owner is an attendee", async () => {
  await withSandbox({ startDay: START_DAY }, async (_sandbox, client) => {
    const token = await client.userToken(ALL);
    const items = (await view(client, token, ANCHOR, ANCHOR + 40 * DAY)).body.data.items as {
      event_id: string;
      self_rsvp_status: string;
    }[];
    const waiting = items.find((i) => i.self_rsvp_status === "needs_action");
    assert.ok(waiting, "the seed has an event waiting for an answer in 40 days");
    const reply = await client.json("POST", `${EVENTS}/${waiting.event_id}/reply`, {
      rsvp_status: "accept",
    }, token);
    assert.equal(reply.body.code, 0, reply.text);
    const after = (await view(client, token, ANCHOR, ANCHOR + 40 * DAY)).body.data.items.find((
      i: { event_id: string },
    ) => i.event_id === waiting.event_id);
    assert.equal(after.self_rsvp_status, "accept");
  });
});
