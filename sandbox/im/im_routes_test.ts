import assert from "node:assert/strict";
import {
  IM_USER_SCOPES,
  listAll,
  listMessages,
  sendMessage,
  START_DAY,
} from "./_im_test_support.ts";
import { withSandbox } from "../test_client.ts";
import { CHAT_WITHOUT_BOT, CHAT_WITHOUT_FIRST_USER } from "../core/seed_data.ts";

const ANCHOR_MS = Date.parse(`${START_DAY}T00:00:00Z`);
const MESSAGE_KEYS = [
  "message_id",
  "root_id",
  "parent_id",
  "thread_id",
  "msg_type",
  "create_time",
  "update_time",
  "deleted",
  "updated",
  "chat_id",
  "sender",
  "body",
  "mentions",
  "upper_message_id",
];

// deno-lint-ignore no-explicit-any
type Item = any;

function assertMessageShape(item: Item) {
  const keys = Object.keys(item);
  assert.deepEqual(keys, MESSAGE_KEYS.filter((k) => keys.includes(k)), "Lark's key order");
  assert.match(item.message_id, /^om_[0-9a-f]{32}$/);
  assert.match(item.create_time, /^\d{13}$/);
  assert.match(item.update_time, /^\d{13}$/);
  assert.equal(typeof item.deleted, "boolean");
  assert.equal(typeof item.updated, "boolean");
  assert.match(item.chat_id, /^oc_[0-9a-f]{32}$/);
  assert.deepEqual(Object.keys(item.sender).sort(), ["id", "id_type", "sender_type", "tenant_key"]);
  assert.ok(["open_id", "app_id"].includes(item.sender.id_type));
  if (!item.deleted) JSON.parse(item.body.content);
  if (item.thread_id) assert.match(item.thread_id, /^omt_[0-9a-f]{16}$/);
}

Deno.test("message list pages through a seeded chat in both orders with Lark's shape", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(["im:message.group_msg:get_as_user"]);
    const chat = sandbox.chats[0].chat_id;
    const asc = await listAll(client, token, {
      container_id_type: "chat",
      container_id: chat,
      page_size: "7",
    });
    assert.equal(asc.length, 60);
    asc.forEach(assertMessageShape);
    const times = asc.map((m) => Number(m.create_time));
    assert.deepEqual(times, [...times].sort((a, b) => a - b));
    assert.ok(times.at(-1)! < ANCHOR_MS);
    assert.ok(asc.every((m) => m.chat_id === chat));
    // Thread replies live in their thread, not in the chat; inline replies do show.
    const ids = new Set(asc.map((m) => m.message_id));
    assert.ok(asc.every((m) => !m.parent_id || !m.thread_id));
    assert.ok(asc.some((m) => m.parent_id && ids.has(m.parent_id as string)));
    const desc = await listAll(client, token, {
      container_id_type: "chat",
      container_id: chat,
      sort_type: "ByCreateTimeDesc",
      page_size: "50",
    });
    assert.deepEqual(desc, [...asc].reverse());
    const first = await listMessages(client, token, {
      container_id_type: "chat",
      container_id: chat,
    });
    assert.equal(first.body.data.items.length, 20, "page_size defaults to 20");
    assert.equal(first.body.data.has_more, true);
    const last = await listMessages(client, token, {
      container_id_type: "chat",
      container_id: chat,
      page_size: "50",
      page_token: first.body.data.page_token,
    });
    assert.equal(last.body.data.has_more, false);
    assert.equal(last.body.data.page_token, undefined, "no page_token without more");
  });
});

Deno.test("message list filters by a time window in seconds, inclusive", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(["im:message:readonly"]);
    const chat = sandbox.chats[1].chat_id;
    const all = await listAll(client, token, { container_id_type: "chat", container_id: chat });
    const times = all.map((m) => Number(m.create_time));
    const start = Math.ceil(times[10] / 1000);
    const end = Math.floor(times[30] / 1000);
    const window = await listAll(client, token, {
      container_id_type: "chat",
      container_id: chat,
      start_time: String(start),
      end_time: String(end),
      page_size: "4",
    });
    const expected = all.filter((m) => {
      const t = Number(m.create_time);
      return t >= start * 1000 && t <= end * 1000;
    });
    assert.ok(expected.length >= 15);
    assert.deepEqual(window, expected);
    const backwards = await listMessages(client, token, {
      container_id_type: "chat",
      container_id: chat,
      start_time: String(end),
      end_time: String(start),
    });
    assert.equal(backwards.status, 400);
    assert.equal(backwards.body.code, 230001);
    assert.match(backwards.body.msg, /ext=The end_time is earlier than the start_time$/);
    const badStart = await listMessages(client, token, {
      container_id_type: "chat",
      container_id: chat,
      start_time: "2026-03-01",
    });
    assert.match(badStart.body.msg, /ext=invalid start_time$/);
  });
});

Deno.test("message list refuses bad parameters with Lark's codes", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(["im:message:readonly"]);
    const chat = sandbox.chats[0].chat_id;
    const base = { container_id_type: "chat", container_id: chat };
    const cases: [Record<string, string>, number, RegExp][] = [
      [{ container_id: chat }, 99992402, /^field validation failed$/],
      [{ container_id_type: "chat" }, 99992402, /^field validation failed$/],
      [{ ...base, container_id_type: "group" }, 230001, /ext=invalid container_id_type$/],
      [{ ...base, container_id: "oc_nope" }, 230001, /ext=invalid container_id$/],
      [{ container_id_type: "thread", container_id: "omt_nope" }, 230001, /invalid container_id/],
      [{ ...base, sort_type: "ByName" }, 230001, /ext=invalid sort_type$/],
      [{ ...base, page_size: "51" }, 230001, /ext=The page_size exceeds the limit$/],
      [{ ...base, page_size: "0" }, 99992402, /field validation failed/],
      [{ ...base, page_token: "not-a-token" }, 230001, /ext=invalid page_token$/],
    ];
    for (const [query, code, msg] of cases) {
      const answer = await listMessages(client, token, query);
      assert.equal(answer.status, 400, JSON.stringify(query));
      assert.equal(answer.body.code, code, JSON.stringify(query));
      assert.match(answer.body.msg, msg);
    }
    const missing = await listMessages(client, token, { container_id: chat });
    assert.deepEqual(missing.body.error.field_violations, [
      { field: "container_id_type", description: "container_id_type is required" },
    ]);
    const page = await listMessages(client, token, { ...base, page_size: "5" });
    const replayed = await listMessages(client, token, {
      ...base,
      sort_type: "ByCreateTimeDesc",
      page_token: page.body.data.page_token,
    });
    assert.match(
      replayed.body.msg,
      /ext=the request parameters have changed, page_token is invalid$/,
    );
  });
});

Deno.test("only members read, send to and reply in a chat (230002 otherwise)", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const user = await client.userToken(IM_USER_SCOPES);
    const bot = await client.tenantToken();
    const noUser = sandbox.chats[CHAT_WITHOUT_FIRST_USER].chat_id;
    const noBot = sandbox.chats[CHAT_WITHOUT_BOT].chat_id;
    const text = { msg_type: "text", content: '{"text":"hi"}' };
    for (const [token, chat] of [[user, noUser], [bot, noBot]]) {
      const list = await listMessages(client, token, {
        container_id_type: "chat",
        container_id: chat,
      });
      const send = await sendMessage(client, token, "chat_id", { receive_id: chat, ...text });
      for (const answer of [list, send]) {
        assert.equal(answer.status, 400);
        assert.deepEqual(answer.body, {
          code: 230002,
          msg: "Bot/User can NOT be out of the chat.",
        });
      }
    }
    // The bot can read the chat the user is not in, and the other way round.
    const botRead = await listAll(client, bot, { container_id_type: "chat", container_id: noUser });
    const message = botRead[0].message_id;
    for (const path of [`/open-apis/im/v1/messages/${message}`]) {
      const answer = await client.send("GET", path, { token: user });
      assert.equal(answer.body.code, 230002);
    }
    const reply = await client.json(
      "POST",
      `/open-apis/im/v1/messages/${message}/reply`,
      text,
      user,
    );
    assert.equal(reply.body.code, 230002);
    const userRead = await listAll(client, user, {
      container_id_type: "chat",
      container_id: noBot,
    });
    assert.equal(userRead.length, 60);
  });
});

Deno.test("reply makes inline replies and threads that the thread container lists", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const chat = sandbox.chats[2].chat_id;
    const sent = await sendMessage(client, token, "chat_id", {
      receive_id: chat,
      msg_type: "text",
      content: '{"text":"release is out"}',
    });
    const root = sent.body.data.message_id;
    const reply = (id: string, body: Record<string, unknown>) =>
      client.json("POST", `/open-apis/im/v1/messages/${id}/reply`, body, token);
    const inline = await reply(root, { msg_type: "text", content: '{"text":"nice"}' });
    assert.equal(inline.body.code, 0);
    assert.equal(inline.body.data.root_id, root);
    assert.equal(inline.body.data.parent_id, root);
    assert.equal(inline.body.data.thread_id, undefined);
    const nested = await reply(inline.body.data.message_id, {
      msg_type: "text",
      content: '{"text":"agreed"}',
    });
    assert.equal(nested.body.data.root_id, root, "root stays the first message");
    assert.equal(nested.body.data.parent_id, inline.body.data.message_id);

    const inThread = {
      msg_type: "text",
      content: '{"text":"let us discuss here"}',
      reply_in_thread: true,
      uuid: "thread-1",
    };
    const threaded = await reply(inline.body.data.message_id, inThread);
    assert.equal(threaded.body.code, 0);
    const threadId = threaded.body.data.thread_id;
    assert.match(threadId, /^omt_[0-9a-f]{16}$/);
    assert.equal(threaded.body.data.root_id, inline.body.data.message_id);
    assert.equal(threaded.body.data.parent_id, inline.body.data.message_id);
    const again = await reply(inline.body.data.message_id, inThread);
    assert.equal(again.body.data.message_id, threaded.body.data.message_id, "uuid is idempotent");
    // A plain reply to a thread message goes into the thread, to its root.
    const intoThread = await reply(threaded.body.data.message_id, {
      msg_type: "post",
      content: JSON.stringify({
        en_us: {
          title: "t",
          content: [[{
            tag: "md",
            text: "**ok** and *then* [the log](https://x.test/log)\n\n---\n```sh\nnpm test\n```",
          }]],
        },
      }),
    });
    assert.equal(intoThread.body.data.thread_id, threadId);
    assert.equal(intoThread.body.data.parent_id, inline.body.data.message_id);

    const thread = await listAll(client, token, {
      container_id_type: "thread",
      container_id: threadId,
    });
    assert.deepEqual(thread.map((m) => m.message_id), [
      inline.body.data.message_id,
      threaded.body.data.message_id,
      intoThread.body.data.message_id,
    ]);
    assert.equal(thread[0].thread_id, threadId, "the root now carries the thread");
    // Read back as Lark renders an md element: received post elements, never an md tag.
    assert.deepEqual(JSON.parse(thread[2].body.content), {
      title: "t",
      content: [
        [
          { tag: "text", text: "ok", style: ["bold"] },
          { tag: "text", text: " and " },
          { tag: "text", text: "then", style: ["italic"] },
          { tag: "text", text: " " },
          { tag: "a", text: "the log", href: "https://x.test/log" },
        ],
        [{ tag: "hr" }],
        [{ tag: "code_block", language: "SH", text: "npm test\n" }],
      ],
    });
    // A thread has no time window (Lark's doc of the message list): refused, not ignored.
    for (const query of ["start_time=1700000000", "end_time=1800000000"]) {
      const windowed = await client.send(
        "GET",
        `/open-apis/im/v1/messages?container_id_type=thread&container_id=${threadId}&${query}`,
        { token },
      );
      assert.equal(windowed.body.code, 230001, windowed.text);
      assert.match(windowed.body.msg, /not supported for container_id_type thread/);
    }
    const chatList = await listAll(client, token, {
      container_id_type: "chat",
      container_id: chat,
      start_time: String(Math.floor(Number(sent.body.data.create_time) / 1000)),
    });
    assert.deepEqual(
      chatList.map((m) => m.message_id),
      [root, inline.body.data.message_id, nested.body.data.message_id],
      "thread replies stay out of the chat",
    );
    const stored = (await client.send("GET", "/sandbox/messages")).body;
    assert.equal(stored.length, 5);
    assert.equal(stored[1].thread_id, threadId);
  });
});

Deno.test("seeded threads list their root and replies; replying continues them", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const chat = sandbox.chats[0].chat_id;
    const all = await listAll(client, token, { container_id_type: "chat", container_id: chat });
    const root = all.find((m) => m.thread_id)!;
    const thread = await listAll(client, token, {
      container_id_type: "thread",
      container_id: root.thread_id as string,
    });
    assert.equal(thread[0].message_id, root.message_id);
    assert.ok(thread.length >= 2);
    for (const item of thread.slice(1)) {
      assertMessageShape(item);
      assert.equal(item.root_id, root.message_id);
      assert.equal(item.parent_id, root.message_id);
      assert.equal(item.thread_id, root.thread_id);
    }
    const answer = await client.json(
      "POST",
      `/open-apis/im/v1/messages/${thread.at(-1)!.message_id}/reply`,
      { msg_type: "text", content: '{"text":"late to the party"}' },
      token,
    );
    assert.equal(answer.body.data.thread_id, root.thread_id);
    const desc = await listMessages(client, token, {
      container_id_type: "thread",
      container_id: root.thread_id as string,
      sort_type: "ByCreateTimeDesc",
      page_size: "1",
    });
    assert.equal(desc.body.data.items[0].message_id, answer.body.data.message_id);
    assert.equal(desc.body.data.has_more, true);
  });
});

Deno.test("reply refuses unknown, recalled and malformed targets and bodies", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const reply = (id: string, body: unknown) =>
      client.json("POST", `/open-apis/im/v1/messages/${id}/reply`, body, token);
    const unknown = await reply("om_nope", { msg_type: "text", content: '{"text":"x"}' });
    assert.equal(unknown.body.code, 230001);
    assert.match(unknown.body.msg, /ext=invalid message_id$/);
    let recalled: Item;
    for (const chat of sandbox.chats.slice(0, 8)) {
      const items = await listAll(client, token, {
        container_id_type: "chat",
        container_id: chat.chat_id,
      });
      recalled = items.find((m) => m.deleted) ?? recalled;
    }
    assert.ok(recalled, "some seeded message is recalled");
    assert.equal(recalled.body.content, "This message was recalled");
    const got = await client.send("GET", `/open-apis/im/v1/messages/${recalled.message_id}`, {
      token,
    });
    assert.equal(got.body.data.items[0].deleted, true);
    assert.equal(
      got.body.data.items[0].body,
      undefined,
      "get leaves a recalled message's body out",
    );
    const toRecalled = await reply(recalled.message_id, {
      msg_type: "text",
      content: '{"text":"?"}',
    });
    assert.deepEqual(toRecalled.body, { code: 230011, msg: "The message is recalled." });
    const target = (await listAll(client, token, {
      container_id_type: "chat",
      container_id: sandbox.chats[0].chat_id,
    }))[0].message_id as string;
    const cases: [unknown, number][] = [
      [{ content: '{"text":"x"}' }, 99992402],
      [{ msg_type: "video", content: '{"text":"x"}' }, 230001],
      [{ msg_type: "text" }, 99992402],
      [{ msg_type: "text", content: "{" }, 230001],
      [{ msg_type: "text", content: '{"text":"x"}', reply_in_thread: "yes" }, 99992402],
      [{ msg_type: "text", content: '{"text":"x"}', uuid: "u".repeat(51) }, 99992402],
    ];
    for (const [body, code] of cases) {
      assert.equal((await reply(target, body)).body.code, code, JSON.stringify(body));
    }
  });
});

Deno.test("get and mget return data.items with recalled content left out", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const all = await listAll(client, token, {
      container_id_type: "chat",
      container_id: sandbox.chats[3].chat_id,
    });
    const one = await client.send("GET", `/open-apis/im/v1/messages/${all[5].message_id}`, {
      token,
    });
    assert.equal(one.body.code, 0);
    assert.deepEqual(one.body.data.items, [all[5]]);
    const ids = all.slice(0, 3).map((m) => m.message_id);
    const many = await client.send(
      "GET",
      `/open-apis/im/v1/messages/mget?${ids.map((id) => `message_ids=${id}`).join("&")}`,
      { token },
    );
    assert.deepEqual(many.body.data.items, all.slice(0, 3));
    const named = await client.send(
      "GET",
      `/open-apis/im/v1/messages/${all[5].message_id}?user_id_type=union_id&with_sender_name=true`,
      { token },
    );
    const sender = named.body.data.items[0].sender;
    if (sender.sender_type === "user") {
      assert.equal(sender.id_type, "union_id");
      assert.match(sender.id, /^on_/);
      assert.ok(
        sandbox.users.some((u) => u.union_id === sender.id && u.name === sender.sender_name),
      );
    }
    const tooMany = await client.send(
      "GET",
      `/open-apis/im/v1/messages/mget?${Array(51).fill(`message_ids=${ids[0]}`).join("&")}`,
      { token },
    );
    assert.equal(tooMany.body.code, 99992402);
    const unknown = await client.send("GET", "/open-apis/im/v1/messages/om_unknown", { token });
    assert.equal(unknown.body.code, 230001);
    const badType = await client.send(
      "GET",
      `/open-apis/im/v1/messages/${ids[0]}?user_id_type=email`,
      { token },
    );
    assert.equal(badType.body.code, 99992402);
    const wrongScope = await client.userToken(["calendar:calendar"]);
    const refused = await client.send("GET", `/open-apis/im/v1/messages/${ids[0]}`, {
      token: wrongScope,
    });
    assert.equal(refused.body.code, 99991679);
    assert.match(refused.body.msg, /im:message\.group_msg:get_as_user/);
  });
});

Deno.test("send reaches users by every id type, skips resigned users and renders mentions", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const friend = sandbox.users[3];
    const byType = {
      open_id: friend.open_id,
      union_id: friend.union_id,
      user_id: friend.user_id,
      email: friend.email.toUpperCase(),
    };
    const chats = new Set<string>();
    for (const [type, id] of Object.entries(byType)) {
      const answer = await sendMessage(client, token, type, {
        receive_id: id,
        msg_type: "text",
        content: JSON.stringify({ text: `hi <at user_id="${friend.open_id}">x</at> via ${type}` }),
      });
      assert.equal(answer.body.code, 0, type);
      chats.add(answer.body.data.chat_id);
    }
    assert.equal(chats.size, 1, "one p2p chat per pair");
    const [p2p] = chats;
    const items = await listAll(client, token, { container_id_type: "chat", container_id: p2p });
    assert.equal(items.length, 4);
    assert.deepEqual(JSON.parse(items[0].body.content), { text: "hi @_user_1 via open_id" });
    assert.deepEqual(items[0].mentions, [{
      key: "@_user_1",
      id: friend.open_id,
      id_type: "open_id",
      name: friend.name,
      tenant_key: "sandbox_tenant_1",
    }]);
    const other = await client.userToken(IM_USER_SCOPES, { open_id: friend.open_id });
    assert.equal(
      (await listAll(client, other, { container_id_type: "chat", container_id: p2p })).length,
      4,
      "the receiver reads the p2p chat too",
    );
    const stranger = await client.userToken(IM_USER_SCOPES, { open_id: sandbox.users[7].open_id });
    const outsider = await listMessages(client, stranger, {
      container_id_type: "chat",
      container_id: p2p,
    });
    assert.equal(outsider.body.code, 230002);
    const resigned = sandbox.users.at(-1)!;
    const gone = await sendMessage(client, token, "open_id", {
      receive_id: resigned.open_id,
      msg_type: "text",
      content: '{"text":"hello?"}',
    });
    assert.deepEqual(gone.body, { code: 230029, msg: "User has resigned." });
    const nobody = await sendMessage(client, token, "union_id", {
      receive_id: "on_nobody",
      msg_type: "text",
      content: '{"text":"x"}',
    });
    assert.match(nobody.body.msg, /ext=invalid receive_id$/);
    const badType = await sendMessage(client, token, "thread_id", {
      receive_id: "omt_x",
      msg_type: "text",
      content: '{"text":"x"}',
    });
    assert.match(badType.body.msg, /ext=invalid receive_id_type$/);
  });
});

Deno.test("send checks content per message type and its 150 KB / 30 KB limits", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const bot = await client.tenantToken();
    const chat = sandbox.chats[0].chat_id;
    const send = (body: Record<string, unknown>, as = token) =>
      sendMessage(client, as, "chat_id", { receive_id: chat, ...body });
    const cases: [string, string, number, RegExp?][] = [
      ["text", JSON.stringify({ text: "x".repeat(150 * 1024) }), 230025],
      [
        "post",
        JSON.stringify({ zh_cn: { content: [[{ tag: "text", text: "x".repeat(31_000) }]] } }),
        230025,
      ],
      [
        "post",
        '{"zh_cn":{"content":[[{"tag":"blink"}]]}}',
        230001,
        /message_content has wrong tag/,
      ],
      ["post", '{"zh_cn":{"content":[[{"tag":"a","text":"x"}]]}}', 230001, /a_tag's href/],
      ["image", '{"image_key":"img_v3_missing"}', 230001, /ext=invalid image_key$/],
      ["file", '{"file_key":"file_v3_missing"}', 230001, /ext=invalid file_key$/],
      ["image", '{"file_key":"x"}', 230001, /content format of the image type is incorrect/],
      ["share_chat", `{"chat_id":"oc_missing"}`, 230001, /ext=invalid chat_id$/],
      ["share_user", `{"user_id":"ou_missing"}`, 230001, /ext=invalid user_id$/],
      ["system", '{"type":"divider"}', 230001, /as a user is not supported/],
      ["text", "[1]", 230001, /content is not a string in json format/],
    ];
    for (const [msgType, content, code, msg] of cases) {
      const answer = await send({ msg_type: msgType, content });
      assert.equal(answer.body.code, code, `${msgType} ${content.slice(0, 60)}`);
      if (msg) assert.match(answer.body.msg, msg);
    }
    assert.equal(
      (await send({ msg_type: "text", content: JSON.stringify({ text: "x".repeat(100_000) }) }))
        .body.code,
      0,
    );
    const shareChat = await send({
      msg_type: "share_chat",
      content: JSON.stringify({ chat_id: chat }),
    });
    assert.equal(shareChat.body.code, 0);
    const shareUser = await send({
      msg_type: "share_user",
      content: JSON.stringify({ user_id: sandbox.users[1].open_id }),
    });
    assert.equal(shareUser.body.code, 0);
    const card = await send({
      msg_type: "interactive",
      content: JSON.stringify({
        header: { title: { tag: "plain_text", content: "Deploy" } },
        elements: [{ tag: "markdown", content: "**done**" }],
      }),
    }, bot);
    assert.equal(card.body.code, 0);
    assert.equal(card.body.data.sender.sender_type, "app");
    const got = await client.send("GET", `/open-apis/im/v1/messages/${card.body.data.message_id}`, {
      token,
    });
    assert.deepEqual(JSON.parse(got.body.data.items[0].body.content), {
      title: "Deploy",
      elements: [[{ tag: "text", text: "**done**" }]],
    });
    const systemInGroup = await send({ msg_type: "system", content: '{"type":"divider"}' }, bot);
    assert.match(systemInGroup.body.msg, /in group chats is not supported/);
  });
});

Deno.test("messages sent to a thread-mode chat each start a thread", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const token = await client.userToken(IM_USER_SCOPES);
    const created = await client.json("POST", "/open-apis/im/v1/chats", {
      name: "Topics",
      group_message_type: "thread",
      user_id_list: [sandbox.users[1].open_id],
    }, token);
    const chat = created.body.data.chat_id;
    const sent = await sendMessage(client, token, "chat_id", {
      receive_id: chat,
      msg_type: "text",
      content: '{"text":"topic one"}',
    });
    assert.match(sent.body.data.thread_id, /^omt_/);
    const thread = await listAll(client, token, {
      container_id_type: "thread",
      container_id: sent.body.data.thread_id,
    });
    assert.deepEqual(thread.map((m) => m.message_id), [sent.body.data.message_id]);
  });
});

Deno.test("a 50,000-message chat pages through in order: 1,000 pages of 50", async () => {
  await withSandbox({ startDay: START_DAY, largeChatMessages: 50_000 }, async (sandbox, client) => {
    const token = await client.userToken(["im:message:readonly"]);
    const chat = sandbox.chats[0].chat_id;
    const seen = new Set<string>();
    let previous = 0;
    let pageToken = "";
    let pages = 0;
    do {
      const answer = await listMessages(client, token, {
        container_id_type: "chat",
        container_id: chat,
        page_size: "50",
        sort_type: "ByCreateTimeDesc",
        ...(pageToken ? { page_token: pageToken } : {}),
      });
      for (const item of answer.body.data.items) {
        seen.add(item.message_id);
        const t = Number(item.create_time);
        assert.ok(previous === 0 || t < previous);
        previous = t;
      }
      pages++;
      pageToken = answer.body.data.has_more ? answer.body.data.page_token : "";
    } while (pageToken);
    assert.equal(seen.size, 50_000);
    assert.equal(pages, 1000);
    const other = await listAll(client, token, {
      container_id_type: "chat",
      container_id: sandbox.chats[1].chat_id,
    });
    assert.equal(other.length, 60, "only the first chat is large");
  });
});

Deno.test("the bot reaches an IM route only when the app enabled one of its bot scopes", async () => {
  await withSandbox(
    { startDay: START_DAY, appScopes: ["im:message:send_as_bot"] },
    async (sandbox, client) => {
      const bot = await client.tenantToken();
      const chat = sandbox.chats[0].chat_id;
      const sent = await sendMessage(client, bot, "chat_id", {
        receive_id: chat,
        msg_type: "text",
        content: '{"text":"hello"}',
      });
      assert.equal(sent.body.code, 0);
      const list = await listMessages(client, bot, {
        container_id_type: "chat",
        container_id: chat,
      });
      assert.equal(list.body.code, 99991672);
      assert.deepEqual(
        list.body.error.permission_violations.map((v: { subject: string }) => v.subject),
        [
          "im:message.group_msg",
          "im:message.p2p_msg:readonly",
          "im:message:readonly",
          "im:message",
        ],
      );
    },
  );
});
