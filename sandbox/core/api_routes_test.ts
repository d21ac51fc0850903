import assert from "node:assert/strict";
import { type TestClient, withSandbox } from "../test_client.ts";

const DAY = 86_400;
const START_DAY = "2026-03-02";
const ANCHOR = Date.parse(`${START_DAY}T00:00:00Z`) / 1000;

function view(client: TestClient, token: string, from: number, to: number, calendar = "primary") {
  return client.send(
    "GET",
    `/open-apis/calendar/v4/calendars/${calendar}/events/instance_view?start_time=${from}&end_time=${to}`,
    { token },
  );
}

// lark-cli meta_data.json (d5d198a), calendar events.instance_view `scopes`.
const VIEW_SCOPES = [
  "calendar:calendar:readonly",
  "calendar:calendar",
  "calendar:calendar.event:read",
];

Deno.test("a user token without any accepted scope gets 99991679 listing every alternative", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const token = await client.userToken(["contact:user:search"]);
    const answer = await view(client, token, ANCHOR, ANCHOR + DAY);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.code, 99991679);
    assert.match(
      answer.body.msg,
      /\[calendar:calendar:readonly, calendar:calendar, calendar:calendar\.event:read\]/,
    );
    assert.deepEqual(
      answer.body.error.permission_violations,
      VIEW_SCOPES.map((subject) => ({ type: "action_scope_required", subject })),
    );
    assert.match(answer.body.error.log_id, /^\d{14}[0-9A-F]{18}$/);
    for (const scope of VIEW_SCOPES) {
      const granted = await client.userToken([scope]);
      assert.equal((await view(client, granted, ANCHOR, ANCHOR + DAY)).body.code, 0, scope);
    }
    const fine = await client.userToken(["calendar:calendar.event:read"]);
    const create = await client.json("POST", "/open-apis/calendar/v4/calendars/primary/events", {
      summary: "x",
      start_time: { timestamp: String(ANCHOR) },
      end_time: { timestamp: String(ANCHOR + 3600) },
    }, fine);
    assert.equal(create.body.code, 99991679);
    assert.deepEqual(
      create.body.error.permission_violations.map((v: { subject: string }) => v.subject),
      ["calendar:calendar", "calendar:calendar.event:create"],
    );
  });
});

Deno.test("a route none of whose scopes the app enabled gets 99991672, for bots and users", async () => {
  await withSandbox({}, async (_sandbox, client) => {
    const user = await client.userToken(["calendar:calendar.event:read"]);
    const bot = await client.tenantToken();
    assert.equal((await view(client, bot, ANCHOR, ANCHOR + DAY)).body.code, 0);
    await client.json("POST", "/sandbox/app_scopes", { scopes: ["contact:user:search"] });
    for (const token of [bot, user]) {
      const answer = await view(client, token, ANCHOR, ANCHOR + DAY);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 99991672);
      assert.match(answer.body.msg, /^Access denied\. One of the following scopes is required: \[/);
      assert.equal(answer.body.error.permission_violations.length, VIEW_SCOPES.length);
    }
    // One enabled alternative is enough for the app; the user still needs one granted.
    await client.json("POST", "/sandbox/app_scopes", { scopes: ["calendar:calendar:readonly"] });
    assert.equal((await view(client, bot, ANCHOR, ANCHOR + DAY)).body.code, 0);
    assert.equal((await view(client, user, ANCHOR, ANCHOR + DAY)).body.code, 99991679);
  });
});

Deno.test("the app's enabled scopes can be set at start", async () => {
  await withSandbox({ appScopes: ["offline_access"] }, async (_sandbox, client) => {
    const bot = await client.tenantToken();
    assert.equal((await view(client, bot, ANCHOR, ANCHOR + DAY)).body.code, 99991672);
  });
  await assert.rejects(
    withSandbox({ appScopes: ["im:message:send"] }, () => Promise.resolve()),
    /unknown app scopes "im:message:send"/,
  );
});

Deno.test("tenant tokens reach the app's scopes but not user-only routes (20027)", async () => {
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
    const chat = sandbox.chats[1].chat_id;
    const path = "/open-apis/im/v1/messages?receive_id_type=chat_id";
    const body = { receive_id: chat, msg_type: "text", content: '{"text":"hello"}', uuid: "u-1" };
    // As a user, Lark's message create doc needs im:message and im:message.send_as_user both.
    for (const half of [["im:message.send_as_user"], ["im:message"]]) {
      const refused = await client.json("POST", path, body, await client.userToken(half));
      assert.equal(refused.body.code, 99991679, half[0]);
      assert.deepEqual(
        refused.body.error.permission_violations.map((v: { subject: string }) => v.subject),
        ["im:message.send_as_user", "im:message"].filter((s) => s !== half[0]),
        "the violation names the missing half",
      );
    }
    const token = await client.userToken(["im:message.send_as_user", "im:message"]);
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
      const token = await client.userToken(["calendar:calendar.event:read"]);
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
