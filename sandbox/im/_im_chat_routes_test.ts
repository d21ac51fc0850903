import assert from "node:assert/strict";
import { IM_USER_SCOPES, sendMessage, START_DAY } from "./_im_test_support.ts";
import { type TestClient, withSandbox } from "../test_client.ts";
import { CHAT_WITHOUT_BOT, CHAT_WITHOUT_FIRST_USER } from "../core/seed_data.ts";

const LIST_ITEM_KEYS = [
  "chat_id",
  "avatar",
  "name",
  "description",
  "owner_id",
  "owner_id_type",
  "external",
  "tenant_key",
  "chat_status",
];

async function allChats(client: TestClient, token: string, path: string) {
  const names: string[] = [];
  let pageToken = "";
  do {
    const sep = path.includes("?") ? "&" : "?";
    const answer = await client.send(
      "GET",
      `${path}${sep}page_size=3${pageToken ? `&page_token=${pageToken}` : ""}`,
      { token },
    );
    assert.equal(answer.body.code, 0, answer.text);
    for (const item of answer.body.data.items) {
      assert.deepEqual(Object.keys(item), LIST_ITEM_KEYS.filter((k) => k in item));
      names.push(item.name);
    }
    pageToken = answer.body.data.has_more ? answer.body.data.page_token : "";
  } while (pageToken);
  return names;
}

Deno.test("chat list pages through the chats the caller is in, user and bot alike", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const user = await client.userToken(["im:chat:read"]);
    const bot = await client.tenantToken();
    const names = sandbox.chats.map((c) => c.name);
    assert.deepEqual(
      await allChats(client, user, "/open-apis/im/v1/chats"),
      names.filter((_, i) => i !== CHAT_WITHOUT_FIRST_USER),
    );
    assert.deepEqual(
      await allChats(client, bot, "/open-apis/im/v1/chats"),
      names.filter((_, i) => i !== CHAT_WITHOUT_BOT),
    );
    const first = await client.send("GET", "/open-apis/im/v1/chats?page_size=1", { token: user });
    const item = first.body.data.items[0];
    assert.equal(item.owner_id, sandbox.users[0].open_id);
    assert.equal(item.owner_id_type, "open_id");
    assert.equal(item.external, false);
    assert.equal(item.chat_status, "normal");
    const union = await client.send("GET", "/open-apis/im/v1/chats?user_id_type=union_id", {
      token: user,
    });
    assert.equal(union.body.data.items[0].owner_id, sandbox.users[0].union_id);
    assert.equal(union.body.data.has_more, false);
    assert.equal(union.body.data.page_token, undefined);
    // Activity order follows the newest message.
    const bump = await sendMessage(client, await client.userToken(IM_USER_SCOPES), "chat_id", {
      receive_id: sandbox.chats[4].chat_id,
      msg_type: "text",
      content: '{"text":"bump"}',
    });
    assert.equal(bump.body.code, 0);
    const active = await client.send("GET", "/open-apis/im/v1/chats?sort_type=ByActiveTimeDesc", {
      token: user,
    });
    assert.equal(active.body.data.items[0].chat_id, sandbox.chats[4].chat_id);
    for (
      const [query, code] of [
        ["page_size=101", 99992402],
        ["page_size=0", 99992402],
        ["sort_type=ByName", 99992402],
        ["user_id_type=email", 99992402],
        ["page_token=garbage", 232001],
      ] as const
    ) {
      const answer = await client.send("GET", `/open-apis/im/v1/chats?${query}`, { token: user });
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.code, code, query);
    }
  });
});

Deno.test("chat search matches names and members among visible and public chats", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const user = await client.userToken(["im:chat:read"]);
    const bot = await client.tenantToken();
    const search = (token: string, query: string) =>
      allChats(client, token, `/open-apis/im/v1/chats/search?query=${encodeURIComponent(query)}`);
    assert.deepEqual(await search(user, "team"), ["Mobile Team"]);
    assert.deepEqual(await search(user, "security"), [], "private and not a member");
    assert.deepEqual(await search(bot, "security"), ["Security Council"]);
    assert.deepEqual(await search(bot, "offsite"), ["Offsite Planning"], "public: found anyway");
    const member = sandbox.users.find((u) =>
      sandbox.chats[6].member_open_ids.includes(u.open_id) && u !== sandbox.users[0]
    )!;
    assert.ok((await search(user, member.name)).includes("Data Platform"));
    assert.deepEqual(await search(user, ""), []);
    assert.deepEqual(await search(user, "x".repeat(65)), []);
  });
});

Deno.test("chat create makes a group with members, idempotent with uuid", async () => {
  await withSandbox({ startDay: START_DAY }, async (sandbox, client) => {
    const user = await client.userToken(IM_USER_SCOPES);
    const [a, b] = [sandbox.users[1], sandbox.users[2]];
    const body = {
      name: "Launch war room",
      description: "for the launch",
      user_id_list: [a.union_id, b.union_id],
      join_message_visibility: "only_owner",
    };
    const path = "/open-apis/im/v1/chats?user_id_type=union_id&uuid=room-1";
    const created = await client.json("POST", path, body, user);
    assert.equal(created.body.code, 0, created.text);
    const chat = created.body.data;
    assert.match(chat.chat_id, /^oc_[0-9a-f]{32}$/);
    assert.equal(chat.name, "Launch war room");
    assert.equal(chat.owner_id, sandbox.users[0].union_id, "the creator owns it");
    assert.equal(chat.owner_id_type, "union_id");
    assert.equal(chat.chat_mode, "group");
    assert.equal(chat.chat_type, "private");
    assert.equal(chat.group_message_type, "chat");
    assert.equal(chat.join_message_visibility, "only_owner");
    assert.equal(chat.restricted_mode_setting.status, false);
    const again = await client.json("POST", path, body, user);
    assert.equal(again.body.data.chat_id, chat.chat_id);
    const other = await client.json("POST", path.replace("room-1", "room-2"), body, user);
    assert.equal(other.body.code, 0);
    assert.notEqual(other.body.data.chat_id, chat.chat_id, "another uuid, another chat");
    const detail = await client.send("GET", `/open-apis/im/v1/chats/${chat.chat_id}`, {
      token: user,
    });
    assert.equal(detail.body.data.user_count, "3");
    assert.equal(detail.body.data.bot_count, "0");
    assert.equal(detail.body.data.chat_status, "normal");
    const mine = await allChats(client, user, "/open-apis/im/v1/chats");
    assert.ok(mine.includes("Launch war room"));
    const member = await client.userToken(IM_USER_SCOPES, { open_id: a.open_id });
    const said = await sendMessage(client, member, "chat_id", {
      receive_id: chat.chat_id,
      msg_type: "text",
      content: '{"text":"joined"}',
    });
    assert.equal(said.body.code, 0);
    const bot = await client.tenantToken();
    const botSays = await sendMessage(client, bot, "chat_id", {
      receive_id: chat.chat_id,
      msg_type: "text",
      content: '{"text":"beep"}',
    });
    assert.equal(botSays.body.code, 230002, "the bot was not invited");
  });
});

Deno.test("the bot creates chats it owns, or gives them to an owner and manages them", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const bot = await client.tenantToken();
    const own = await client.json("POST", "/open-apis/im/v1/chats", { name: "Bot room" }, bot);
    assert.equal(own.body.code, 0);
    assert.equal(own.body.data.owner_id, undefined, "no owner fields when the bot owns it");
    const owner = sandbox.users[5];
    const given = await client.json(
      "POST",
      "/open-apis/im/v1/chats?set_bot_manager=true",
      { name: "Handed over", owner_id: owner.open_id, bot_id_list: [sandbox.appId] },
      bot,
    );
    assert.equal(given.body.data.owner_id, owner.open_id);
    const detail = await client.send("GET", `/open-apis/im/v1/chats/${given.body.data.chat_id}`, {
      token: bot,
    });
    assert.deepEqual(detail.body.data.bot_manager_id_list, [sandbox.appId]);
    assert.equal(detail.body.data.bot_count, "1");
    const empty = await client.send("POST", "/open-apis/im/v1/chats", { token: bot });
    assert.equal(empty.body.code, 0, "no body at all is an empty request");
  });
});

Deno.test("chat create refuses bad members, names and fields", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const user = await client.userToken(IM_USER_SCOPES);
    const create = (body: Record<string, unknown>, query = "") =>
      client.json("POST", `/open-apis/im/v1/chats${query}`, body, user);
    const ids = sandbox.users.map((u) => u.open_id);
    const cases: [Record<string, unknown>, string, number][] = [
      [{ user_id_list: ["ou_nobody"] }, "", 232043],
      [{ user_id_list: [ids.at(-1)] }, "", 232022],
      [{ bot_id_list: ["cli_other"] }, "", 232043],
      [{ owner_id: "ou_nobody" }, "", 232030],
      [{ chat_type: "public" }, "", 232042],
      [{ chat_type: "public", name: "x" }, "", 232020],
      [{ chat_mode: "topic" }, "", 232001],
      [{ external: true }, "", 232033],
      [{ user_id_list: ids.slice(0, 49).concat(ids.slice(0, 2)) }, "", 99992402],
      [{ bot_id_list: Array(6).fill(sandbox.appId) }, "", 99992402],
      [{ join_message_visibility: "everyone" }, "", 99992402],
      [{ name: 5 }, "", 99992402],
      [{}, "?uuid=" + "u".repeat(51), 99992402],
      [{}, "?set_bot_manager=yes", 99992402],
    ];
    for (const [body, query, code] of cases) {
      const answer = await create(body, query);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.code, code, JSON.stringify(body));
    }
    const noScope = await client.userToken(["im:chat:read"]);
    const refused = await client.json("POST", "/open-apis/im/v1/chats", {}, noScope);
    assert.equal(refused.body.code, 99991679, "the user has not granted a create scope");
  });
});

Deno.test("chat get needs membership and a known chat", async () => {
  await withSandbox({}, async (sandbox, client) => {
    const user = await client.userToken(["im:chat:read"]);
    const get = (id: string) => client.send("GET", `/open-apis/im/v1/chats/${id}`, { token: user });
    const known = await get(sandbox.chats[0].chat_id);
    assert.equal(known.body.code, 0);
    assert.equal(known.body.data.name, sandbox.chats[0].name);
    assert.equal(known.body.data.user_count, String(sandbox.chats[0].member_open_ids.length));
    assert.equal(known.body.data.chat_id, undefined, "get does not repeat the id");
    assert.deepEqual((await get(sandbox.chats[CHAT_WITHOUT_FIRST_USER].chat_id)).body, {
      code: 232011,
      msg: "Operator can NOT be out of the chat.",
    });
    assert.deepEqual((await get("oc_nope")).body, {
      code: 232006,
      msg: "Your request specifies a chat_id which is invalid.",
    });
    const p2p = await sendMessage(client, await client.userToken(IM_USER_SCOPES), "open_id", {
      receive_id: sandbox.users[1].open_id,
      msg_type: "text",
      content: '{"text":"hi"}',
    });
    const direct = await get(p2p.body.data.chat_id);
    assert.equal(direct.body.data.chat_mode, "p2p");
    assert.equal(direct.body.data.chat_type, undefined, "p2p chats have no group fields");
  });
});
