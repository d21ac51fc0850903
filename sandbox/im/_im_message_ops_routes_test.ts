import assert from "node:assert/strict";
import { sendMessage, START_DAY } from "./_im_test_support.ts";
import { type TestClient, withSandbox } from "../test_client.ts";
import { CHAT_WITHOUT_FIRST_USER } from "../core/seed_data.ts";

const TEXT = { msg_type: "text", content: JSON.stringify({ text: "hi" }) };
const ALL = [
  "im:message",
  "im:message.send_as_user",
  "im:message.reactions:write_only",
  "im:message.reactions:read",
  "im:message.pins:write_only",
  "im:message.pins:read",
  "im:message:recall",
];

async function published(client: TestClient): Promise<number> {
  return (await client.send("GET", "/sandbox/event_stream")).body.published;
}

Deno.test("reactions: known emoji only, each caller removes its own, users raise events", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const chat = sandbox.chats[0];
    const user = await client.userToken(ALL);
    const bot = await client.tenantToken();
    const sent = await sendMessage(client, bot, "chat_id", { receive_id: chat.chat_id, ...TEXT });
    const id = sent.body.data.message_id;
    const path = `/open-apis/im/v1/messages/${id}/reactions`;
    const react = (token: string, emoji: unknown) =>
      client.json("POST", path, { reaction_type: { emoji_type: emoji } }, token);
    assert.equal((await react(user, "thumbsup")).body.code, 231001, "emoji types are exact");
    assert.equal((await react(user, 7)).body.code, 231001);
    const before = await published(client);
    const mine = await react(user, "THUMBSUP");
    assert.equal(mine.body.code, 0, mine.text);
    assert.equal(await published(client), before + 1, "a user's reaction raises created_v1");
    const bots = await react(bot, "DONE");
    assert.equal(await published(client), before + 1, "the app's reaction raises nothing");
    const steal = await client.send("DELETE", `${path}/${mine.body.data.reaction_id}`, {
      token: bot,
    });
    assert.equal(steal.body.code, 231003);
    const taken = await client.send("DELETE", `${path}/${mine.body.data.reaction_id}`, {
      token: user,
    });
    assert.equal(taken.body.code, 0, taken.text);
    assert.equal(await published(client), before + 2, "taking it back raises deleted_v1");
    const left = await client.send("GET", `${path}?page_size=1`, { token: bot });
    assert.deepEqual(left.body.data.items.map((r: { reaction_id: string }) => r.reaction_id), [
      bots.body.data.reaction_id,
    ]);
    const tooBig = await client.send("GET", `${path}?page_size=51`, { token: bot });
    assert.equal(tooBig.body.code, 99992402);
    const away = sandbox.chats[CHAT_WITHOUT_FIRST_USER].chat_id;
    const there = await sendMessage(client, bot, "chat_id", { receive_id: away, ...TEXT });
    const outside = await client.json(
      "POST",
      `/open-apis/im/v1/messages/${there.body.data.message_id}/reactions`,
      { reaction_type: { emoji_type: "OK" } },
      user,
    );
    assert.equal(outside.body.code, 230002, "only members react");
  });
});

Deno.test("pins: pinning twice keeps the first pin; the window is in milliseconds", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const chat = sandbox.chats[0].chat_id;
    const user = await client.userToken(ALL);
    const sent = await sendMessage(client, user, "chat_id", { receive_id: chat, ...TEXT });
    const id = sent.body.data.message_id;
    const first = await client.json("POST", "/open-apis/im/v1/pins", { message_id: id }, user);
    const again = await client.json(
      "POST",
      "/open-apis/im/v1/pins",
      { message_id: id },
      await client.tenantToken(),
    );
    assert.deepEqual(again.body.data.pin, first.body.data.pin);
    const at = Number(first.body.data.pin.create_time);
    const list = (query: string) =>
      client.send("GET", `/open-apis/im/v1/pins?chat_id=${chat}${query}`, { token: user });
    assert.equal((await list(`&start_time=${at}`)).body.data.items.length, 1);
    assert.equal((await list(`&start_time=${at + 1}`)).body.data.items.length, 0);
    assert.equal((await list("&start_time=yesterday")).body.code, 99992402);
    assert.equal(
      (await client.send("GET", "/open-apis/im/v1/pins", { token: user })).body.code,
      99992402,
    );
  });
});

Deno.test("recall: own messages, anyone's for the owner, never the seeded history", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const chat = sandbox.chats[0];
    const owner = await client.userToken(ALL);
    const member = await client.userToken(ALL, { open_id: chat.member_open_ids[1] });
    const bot = await client.tenantToken();
    const recall = (id: string, token: string) =>
      client.send("DELETE", `/open-apis/im/v1/messages/${id}`, { token });
    const byBot = (await sendMessage(client, bot, "chat_id", { receive_id: chat.chat_id, ...TEXT }))
      .body.data.message_id;
    const byMember =
      (await sendMessage(client, member, "chat_id", { receive_id: chat.chat_id, ...TEXT }))
        .body.data.message_id;
    assert.equal((await recall(byBot, member)).body.code, 230026, "a member recalls only its own");
    assert.equal((await recall(byMember, bot)).body.code, 230026, "the bot does not manage it");
    assert.equal((await recall(byMember, member)).body.code, 0);
    assert.equal((await recall(byBot, owner)).body.code, 0, "the owner recalls anyone's");
    assert.equal((await recall(byBot, bot)).body.code, 230011);
    const history = await client.send(
      "GET",
      `/open-apis/im/v1/messages?container_id_type=chat&container_id=${chat.chat_id}&page_size=1`,
      { token: owner },
    );
    const seeded = history.body.data.items[0].message_id;
    assert.equal((await recall(seeded, owner)).body.code, 230009);
  });
});

Deno.test("read users and urgent: the app's own messages, a tenant token only", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const chat = sandbox.chats[0];
    const user = await client.userToken([...ALL, "im:message:readonly"]);
    const bot = await client.tenantToken();
    const byBot = (await sendMessage(client, bot, "chat_id", { receive_id: chat.chat_id, ...TEXT }))
      .body.data.message_id;
    const byUser =
      (await sendMessage(client, user, "chat_id", { receive_id: chat.chat_id, ...TEXT }))
        .body.data.message_id;
    const readers = (id: string, token: string, query = "?user_id_type=open_id") =>
      client.send("GET", `/open-apis/im/v1/messages/${id}/read_users${query}`, { token });
    assert.equal((await readers(byBot, user)).body.code, 99991679);
    assert.equal((await readers(byBot, bot, "")).body.code, 99992402, "user_id_type is required");
    assert.equal((await readers(byUser, bot)).body.code, 230017, "only the app's messages");
    const read = await readers(byBot, bot);
    assert.deepEqual(read.body.data.items.map((r: { user_id: string }) => r.user_id), [
      sandbox.users[0].open_id,
    ]);
    const urgent = (id: string, kind: string, ids: string[]) =>
      client.json(
        "PATCH",
        `/open-apis/im/v1/messages/${id}/urgent_${kind}?user_id_type=open_id`,
        { user_id_list: ids },
        bot,
      );
    assert.equal((await urgent(byUser, "app", [chat.member_open_ids[1]])).body.code, 230017);
    const outsider = sandbox.users.find((u) => !chat.member_open_ids.includes(u.open_id));
    const ids = [chat.member_open_ids[1], ...(outsider ? [outsider.open_id] : [])];
    const done = await urgent(byBot, "sms", ids);
    assert.deepEqual(done.body.data.invalid_user_id_list, ids.slice(1));
    assert.equal((await urgent(byBot, "app", [])).body.code, 99992402);
  });
});
