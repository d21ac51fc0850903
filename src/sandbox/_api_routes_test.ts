import assert from "node:assert/strict";
import { type TestClient, withSandbox } from "./_test_client.ts";

const DAY = 86_400;
const START_DAY = "2026-03-02";
const ANCHOR = Date.parse(`${START_DAY}T00:00:00Z`) / 1000;
const ALL = [
  "calendar:calendar",
  "contact:user:search",
  "im:message:send",
  "offline_access",
];

function view(client: TestClient, token: string, from: number, to: number, calendar = "primary") {
  return client.send(
    "GET",
    `/open-apis/calendar/v4/calendars/${calendar}/events/instance_view?start_time=${from}&end_time=${to}`,
    { token },
  );
}

Deno.test("instance_view spreads one-off, recurring, all-day and cancelled events over 450 days", async () => {
  await withSandbox({ startDay: START_DAY }, async (_sandbox, client) => {
    const token = await client.userToken(["calendar:calendar:readonly"]);
    const kinds = { oneOff: 0, recurring: 0, allDay: 0, cancelled: 0, exception: 0 };
    for (let from = ANCHOR - 200 * DAY; from < ANCHOR + 250 * DAY; from += 40 * DAY) {
      const answer = await view(client, token, from, from + 40 * DAY);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.code, 0);
      const items = answer.body.data.items;
      assert.ok(items.length > 20, `only ${items.length} items from ${from}`);
      for (const item of items) {
        if (item.recurring_event_id) {
          kinds.recurring++;
          assert.equal(
            item.event_id,
            `${item.recurring_event_id.replace(/_0$/, "")}_${item.start_time.timestamp}`,
          );
        } else if (item.start_time.date) kinds.allDay++;
        else kinds.oneOff++;
        if (item.status === "cancelled") kinds.cancelled++;
        if (item.is_exception) kinds.exception++;
        assert.ok(["busy", "free"].includes(item.free_busy_status));
        assert.ok(
          ["accept", "decline", "tentative", "needs_action"].includes(item.self_rsvp_status),
        );
      }
    }
    for (const [kind, count] of Object.entries(kinds)) assert.ok(count > 0, `no ${kind} events`);
  });
});

Deno.test("instance_view is sorted and only returns overlapping instances", async () => {
  await withSandbox({ startDay: START_DAY }, async (_sandbox, client) => {
    const token = await client.userToken(["calendar:calendar"]);
    const from = ANCHOR + 9 * 3600;
    const to = ANCHOR + 7 * DAY;
    const items = (await view(client, token, from, to)).body.data.items;
    const seconds = (t: { timestamp?: string; date?: string }) =>
      t.timestamp ? Number(t.timestamp) : Date.parse(`${t.date}T00:00:00Z`) / 1000;
    let previous = -Infinity;
    for (const item of items) {
      assert.ok(seconds(item.start_time) >= previous);
      previous = seconds(item.start_time);
      assert.ok(seconds(item.start_time) < to && seconds(item.end_time) > from);
    }
  });
});

Deno.test("instance_view answers 193103 over 40 days and 190002 for bad times", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(["calendar:calendar:readonly"]);
    const span = await view(client, token, ANCHOR, ANCHOR + 40 * DAY + 1);
    assert.equal(span.status, 400);
    assert.equal(span.body.code, 193103);
    assert.equal((await view(client, token, ANCHOR, ANCHOR + 40 * DAY)).status, 200);
    const bad = await client.send(
      "GET",
      "/open-apis/calendar/v4/calendars/primary/events/instance_view?start_time=2026-01-01",
      { token },
    );
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 190002);
    const backwards = await view(client, token, ANCHOR + DAY, ANCHOR);
    assert.equal(backwards.body.code, 190002);
    const unknown = await view(client, token, ANCHOR, ANCHOR + DAY, "nope@calendar");
    assert.equal(unknown.body.code, 191002);
  });
});

Deno.test("instance_view answers 193104 over 1000 instances", async () => {
  await withSandbox({ startDay: START_DAY, eventsPerDay: 30 }, async (_sandbox, client) => {
    const token = await client.userToken(["calendar:calendar:readonly"]);
    const many = await view(client, token, ANCHOR, ANCHOR + 40 * DAY);
    assert.equal(many.status, 400);
    assert.equal(many.body.code, 193104);
    const fewer = await view(client, token, ANCHOR, ANCHOR + 10 * DAY);
    assert.equal(fewer.status, 200);
    assert.ok(fewer.body.data.items.length > 300);
  });
});

Deno.test("a user token without the scope gets 99991672 naming it", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(["contact:user:search"]);
    const answer = await view(client, token, ANCHOR, ANCHOR + DAY);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.code, 99991672);
    assert.match(answer.body.msg, /\[calendar:calendar:readonly\]/);
    assert.deepEqual(answer.body.error.permission_violations, [
      { type: "action_scope_required", subject: "calendar:calendar:readonly" },
    ]);
    const readOnly = await client.userToken(["calendar:calendar:readonly"]);
    const create = await client.json("POST", "/open-apis/calendar/v4/calendars/primary/events", {
      summary: "x",
      start_time: { timestamp: String(ANCHOR) },
      end_time: { timestamp: String(ANCHOR + 3600) },
    }, readOnly);
    assert.equal(create.body.code, 99991672);
    assert.equal(create.body.error.permission_violations[0].subject, "calendar:calendar");
  });
});

Deno.test("tenant tokens reach every scope but not user-only routes (20027)", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.tenantToken();
    const own = await view(client, token, ANCHOR, ANCHOR + DAY);
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.data.items, []);
    const info = await client.send("GET", "/open-apis/authen/v1/user_info", { token });
    assert.equal(info.status, 400);
    assert.equal(info.body.code, 20027);
    const search = await client.send("GET", "/open-apis/search/v1/user?query=a", { token });
    assert.equal(search.body.code, 20027);
    const sent = await client.json(
      "POST",
      "/open-apis/im/v1/messages?receive_id_type=chat_id",
      { receive_id: sandbox.chats[0].chat_id, msg_type: "text", content: '{"text":"hi"}' },
      token,
    );
    assert.equal(sent.body.code, 0);
    assert.equal(sent.body.data.sender.sender_type, "app");
  });
});

Deno.test("unknown /open-apis routes answer 404 with a Lark body", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const answer = await client.send("GET", "/open-apis/nothing/v1/here");
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, { code: 404, msg: "404 page not found" });
  });
});

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
    const again = await client.send("DELETE", `${base}/${event.event_id}`, { token });
    assert.equal(again.body.code, 193001);
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
  });
});

Deno.test("freebusy lists busy, non-cancelled instances and limits the span", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(["calendar:calendar:readonly"]);
    const user = sandbox.users[2];
    const path = "/open-apis/calendar/v4/freebusy/list?user_id_type=open_id";
    const from = new Date(ANCHOR * 1000).toISOString();
    const to = new Date((ANCHOR + 7 * DAY) * 1000).toISOString();
    const answer = await client.json("POST", path, {
      time_min: from,
      time_max: to,
      user_id: user.open_id,
    }, token);
    assert.equal(answer.body.code, 0);
    const list = answer.body.data.freebusy_list;
    const other = await client.userToken(["calendar:calendar:readonly"], { open_id: user.open_id });
    const items = (await view(client, other, ANCHOR, ANCHOR + 7 * DAY)).body.data.items;
    const busy = items.filter((i: Record<string, string>) =>
      i.status !== "cancelled" && i.free_busy_status === "busy" && i.self_rsvp_status !== "decline"
    );
    assert.ok(list.length > 0);
    assert.equal(list.length, busy.length);
    assert.match(list[0].start_time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const wide = await client.json("POST", path, {
      time_min: from,
      time_max: new Date((ANCHOR + 41 * DAY) * 1000).toISOString(),
      user_id: user.open_id,
    }, token);
    assert.equal(wide.body.code, 193103);
    const nobody = await client.json("POST", path, {
      time_min: from,
      time_max: to,
      user_id: "ou_nobody",
    }, token);
    assert.equal(nobody.body.code, 190002);
  });
});

Deno.test("search pages through users and bounds page_size", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(["contact:user:search"]);
    const query = "a";
    const expected = sandbox.users.filter((u) => u.name.toLowerCase().includes(query));
    const seen: string[] = [];
    let pageToken = "";
    do {
      const answer = await client.send(
        "GET",
        `/open-apis/search/v1/user?query=${query}&page_size=7&page_token=${pageToken}`,
        { token },
      );
      assert.equal(answer.body.code, 0);
      const data = answer.body.data;
      for (const user of data.users) {
        seen.push(user.open_id);
        assert.ok(user.avatar.avatar_72);
        assert.ok(Array.isArray(user.department_ids));
      }
      pageToken = data.has_more ? data.page_token : "";
    } while (pageToken);
    assert.deepEqual(seen, expected.map((u) => u.open_id));
    const big = await client.send("GET", "/open-apis/search/v1/user?query=a&page_size=201", {
      token,
    });
    assert.equal(big.status, 400);
    assert.equal(big.body.code, 99992402);
    const first = sandbox.users[0];
    const exact = await client.send(
      "GET",
      `/open-apis/search/v1/user?query=${encodeURIComponent(first.name)}`,
      { token },
    );
    assert.equal(exact.body.data.users[0].open_id, first.open_id);
  });
});

Deno.test("im send stores messages, honours uuid and validates content and receiver", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const token = await client.userToken(["im:message:send"]);
    const chat = sandbox.chats[1].chat_id;
    const path = "/open-apis/im/v1/messages?receive_id_type=chat_id";
    const body = { receive_id: chat, msg_type: "text", content: '{"text":"hello"}', uuid: "u-1" };
    const first = await client.json("POST", path, body, token);
    assert.equal(first.body.code, 0);
    assert.equal(first.body.data.chat_id, chat);
    assert.equal(first.body.data.body.content, '{"text":"hello"}');
    assert.equal(first.body.data.sender.id, sandbox.users[0].open_id);
    const again = await client.json("POST", path, body, token);
    assert.equal(again.body.data.message_id, first.body.data.message_id);
    const other = await client.json("POST", path, { ...body, uuid: "u-2" }, token);
    assert.notEqual(other.body.data.message_id, first.body.data.message_id);
    const stored = await client.send("GET", "/sandbox/messages");
    assert.equal(stored.body.length, 2);
    assert.equal(stored.body[0].uuid, "u-1");

    const post = await client.json("POST", "/open-apis/im/v1/messages?receive_id_type=email", {
      receive_id: sandbox.users[4].email,
      msg_type: "post",
      content: JSON.stringify({ en_us: { title: "t", content: [[{ tag: "text", text: "x" }]] } }),
    }, token);
    assert.equal(post.body.code, 0);

    const objectContent = await client.json("POST", path, {
      ...body,
      content: { text: "hello" },
    }, token);
    assert.equal(objectContent.body.code, 99992402);
    const badText = await client.json("POST", path, { ...body, content: '{"txt":"x"}' }, token);
    assert.equal(badText.body.code, 230001);
    const badPost = await client.json("POST", path, {
      ...body,
      msg_type: "post",
      content: '{"en_us":{"title":"t"}}',
    }, token);
    assert.equal(badPost.body.code, 230001);
    const unknown = await client.json("POST", path, { ...body, receive_id: "oc_nope" }, token);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 230001);
    assert.match(unknown.body.msg, /ext=invalid receive_id/);
    const noType = await client.json("POST", "/open-apis/im/v1/messages", body, token);
    assert.equal(noType.body.code, 99992402);
    const notJson = await client.send("POST", path, {
      token,
      headers: { "content-type": "text/plain" },
      body: "hello",
    });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.code, 9499);
  });
});

Deno.test("the same seed and start day give identical data; another seed differs", async () => {
  const snapshot = async (seed: number) => {
    let result = "";
    await withSandbox({ seed, startDay: START_DAY }, async (sandbox, client) => {
      const token = await client.userToken(["calendar:calendar:readonly"]);
      const items = (await view(client, token, ANCHOR - 30 * DAY, ANCHOR + 10 * DAY)).body.data
        .items;
      result = JSON.stringify({ users: sandbox.users, chats: sandbox.chats, items });
    });
    return result;
  };
  const a = await snapshot(7);
  assert.equal(a, await snapshot(7));
  assert.notEqual(a, await snapshot(8));
});
