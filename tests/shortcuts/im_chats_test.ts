/**
 * `im +chats` and `im +chat-create` end to end against the sandbox: in process, the first run as
 * a real hark process (the wiring).
 */

import assert from "node:assert/strict";
import { CHAT_WITHOUT_BOT, CHAT_WITHOUT_FIRST_USER } from "../../sandbox/mod.ts";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

interface Chat {
  chat_id: string;
  name: string;
  owner_id?: string;
  chat_type?: string;
}

Deno.test("im +chats and +chat-create against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    await t.step("+chats lists the chats the identity is in", async () => {
      const mine = jsonOf<Chat[]>(await env.runProcess(["im", "+chats", "--page-all", "--json"]));
      const ids = mine.map((c) => c.chat_id);
      assert.ok(ids.includes(env.sb.chats[0].chat_id));
      assert.ok(!ids.includes(env.sb.chats[CHAT_WITHOUT_FIRST_USER].chat_id));
      const bots = jsonOf<Chat[]>(await env.runBot(["im", "+chats", "--page-all", "--json"]));
      assert.ok(!bots.map((c) => c.chat_id).includes(env.sb.chats[CHAT_WITHOUT_BOT].chat_id));
      const table = await env.run(["im", "+chats", "--format", "table"]);
      assert.match(table.stdout.split("\n")[0], /^NAME\s+CHAT ID/);
      await env.clearRequests();
      const two = jsonOf<Chat[]>(await env.run(["im", "+chats", "--limit", "2", "--json"]));
      assert.equal(two.length, 2);
      assert.equal((await env.requests())[0].query.page_size, "2");
    });

    await t.step("--query searches by chat name", async () => {
      const name = env.sb.chats[0].name;
      await env.clearRequests();
      const found = jsonOf<Chat[]>(
        await env.run(["im", "+chats", "--query", name.split(" ")[0], "--json"]),
      );
      assert.ok(found.some((c) => c.chat_id === env.sb.chats[0].chat_id));
      const [request] = await env.requests();
      assert.equal(request.path, "/open-apis/im/v1/chats/search");
    });

    await t.step("+chat-create makes a chat with its members, once per key", async () => {
      const members = [env.sb.users[1].open_id, env.sb.users[2].open_id];
      const args = [
        "im",
        "+chat-create",
        "--name",
        "hark e2e",
        "--members",
        members.join(","),
        "--idempotency-key",
        "chat-1",
        "--json",
      ];
      const first = jsonOf<Chat>(await env.run(args));
      const second = jsonOf<Chat>(await env.run(args));
      assert.match(first.chat_id, /^oc_/);
      assert.equal(second.chat_id, first.chat_id);
      assert.equal(first.owner_id, env.sb.users[0].open_id);
      const mine = jsonOf<Chat[]>(await env.run(["im", "+chats", "--page-all", "--json"]));
      assert.ok(mine.some((c) => c.chat_id === first.chat_id));
      // The members can be messaged there: the new chat is a real one.
      const sent = await env.run(["im", "+send", "--chat-id", first.chat_id, "--text", "hello"]);
      assert.equal(sent.code, 0, sent.stderr);
    });

    await t.step("as the bot, with union ids; the bot is then in the chat", async () => {
      const union = env.sb.users[3].union_id;
      await env.clearRequests();
      const chat = jsonOf<Chat>(
        await env.runBot([
          "im",
          "+chat-create",
          "--name",
          "Bot room",
          "--members",
          union,
          "--json",
        ]),
      );
      // The bot's tenant token is fetched first; the create is the first request to the chats.
      const request = (await env.requests()).find((r) => r.path === "/open-apis/im/v1/chats")!;
      assert.equal(request.method, "POST");
      assert.equal(request.query.user_id_type, "union_id");
      assert.match(request.query.uuid, /^[0-9a-f-]{36}$/);
      const read = await env.runBot(["im", "+messages", "--chat-id", chat.chat_id, "--json"]);
      assert.equal(read.code, 0, read.stderr);
    });

    await t.step("bad input fails before any request, naming the flag", async () => {
      await env.clearRequests();
      const cases: [string[], string][] = [
        [["+chats", "--query", ""], "--query"],
        [["+chats", "--query", "x".repeat(65)], "--query"],
        [["+chats", "--limit", "0"], "--limit"],
        [["+chat-create", "--members", "ou_1"], "--name"],
        [["+chat-create", "--name", " "], "--name"],
        [["+chat-create", "--name", "x", "--members", "ou_1,on_2"], "--members"],
        [["+chat-create", "--name", "x", "--members", "ou 1"], "--members"],
        [["+chat-create", "--name", "x", "--type", "secret"], "--type"],
        [["+chat-create", "--name", "x", "--type", "public"], "--name"],
      ];
      for (const [args, flag] of cases) {
        const run = await env.run(["im", ...args, "--json"]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.ok(JSON.parse(run.stderr).error.message.includes(flag), run.stderr);
      }
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("--dry-run sends nothing and needs no sign-in", async () => {
      const dry = jsonOf<{ url: string; body: unknown }[]>(
        await env.run(["im", "+chat-create", "--name", "x", "--members", "ou_1", "--dry-run"], {
          env: { HARK_USER_ACCESS_TOKEN: undefined },
        }),
      );
      assert.match(dry[0].url, /\/open-apis\/im\/v1\/chats\?user_id_type=open_id&uuid=/);
      assert.deepEqual(dry[0].body, { name: "x", chat_type: "private", user_id_list: ["ou_1"] });
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
