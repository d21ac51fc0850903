/**
 * `im +chat-update` and `+chat-members`, `-add`, `-remove` end to end against the sandbox
 * (wiring only; the rules are tested beside the shortcuts): in process, the chat's creation as a
 * hark process.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

interface Row {
  member_id: string;
  status?: string;
  name?: string;
}

Deno.test("im chat administration against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const [me, second, third] = env.sb.users;
    const chat = jsonOf<{ chat_id: string }>(
      await env.runProcess([
        "im",
        "+chat-create",
        "--name",
        "admin e2e",
        "--members",
        second.open_id,
        "--json",
      ]),
    ).chat_id;

    await t.step("+chat-update renames the chat; +chats finds it by the new name", async () => {
      const done = jsonOf<{ name: string }>(
        await env.run(["im", "+chat-update", "--chat-id", chat, "--name", "Renamed e2e", "--json"]),
      );
      assert.equal(done.name, "Renamed e2e");
      const found = jsonOf<{ chat_id: string }[]>(
        await env.run(["im", "+chats", "--query", "Renamed", "--json"]),
      );
      assert.deepEqual(found.map((c) => c.chat_id), [chat]);
    });

    await t.step("handing the chat over without a terminal needs --yes", async () => {
      const refused = await env.run([
        "im",
        "+chat-update",
        "--chat-id",
        chat,
        "--owner",
        second.open_id,
        "--json",
      ]);
      assert.notEqual(refused.code, 0);
      assert.match(JSON.parse(refused.stderr).error.message, /--yes/);
    });

    await t.step("+chat-members-add, +chat-members, +chat-members-remove --yes", async () => {
      const added = jsonOf<Row[]>(
        await env.run([
          "im",
          "+chat-members-add",
          "--chat-id",
          chat,
          "--members",
          third.open_id,
          "--json",
        ]),
      );
      assert.deepEqual(added, [{ member_id: third.open_id, status: "added" }]);
      const listed = jsonOf<Row[]>(
        await env.run(["im", "+chat-members", "--chat-id", chat, "--json"]),
      );
      assert.deepEqual(
        listed.map((m) => m.member_id).sort(),
        [me.open_id, second.open_id, third.open_id].sort(),
      );
      const page = await env.run([
        "im",
        "+chat-members",
        "--chat-id",
        chat,
        "--limit",
        "1",
        "--json",
      ]);
      const token = /--page-token (\S+)/.exec(page.stderr)?.[1];
      assert.ok(token, page.stderr);
      const rest = jsonOf<Row[]>(
        await env.run(["im", "+chat-members", "--chat-id", chat, "--page-token", token, "--json"]),
      );
      assert.equal(rest.length, 2);
      const removed = jsonOf<Row[]>(
        await env.run([
          "im",
          "+chat-members-remove",
          "--chat-id",
          chat,
          "--members",
          third.open_id,
          "--yes",
          "--json",
        ]),
      );
      assert.deepEqual(removed, [{ member_id: third.open_id, status: "removed" }]);
    });

    await t.step("as the bot, in a seeded chat", async () => {
      const seeded = env.sb.chats[0].chat_id;
      const rows = jsonOf<Row[]>(
        await env.runBot(["im", "+chat-members", "--chat-id", seeded, "--page-all", "--json"]),
      );
      assert.equal(rows.length, env.sb.chats[0].member_open_ids.length);
    });

    await t.step("bad input fails before any request; --dry-run sends nothing", async () => {
      await env.clearRequests();
      const cases: [string[], string][] = [
        [["+chat-update", "--chat-id", chat], "--name"],
        [["+chat-update", "--chat-id", "ou_1", "--name", "x"], "--chat-id"],
        [["+chat-members", "--chat-id", chat, "--page-token", "a b"], "--page-token"],
        [["+chat-members-add", "--chat-id", chat, "--members", "ou_1,on_1"], "--members"],
      ];
      for (const [args, flag] of cases) {
        const run = await env.run(["im", ...args, "--json"]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.ok(JSON.parse(run.stderr).error.message.includes(flag), run.stderr);
      }
      const dry = jsonOf<{ method: string; url: string; body: unknown }[]>(
        await env.run([
          "im",
          "+chat-members-remove",
          "--chat-id",
          chat,
          "--members",
          "ou_x",
          "--dry-run",
        ]),
      );
      assert.equal(dry[0].method, "DELETE");
      assert.deepEqual(dry[0].body, { id_list: ["ou_x"] });
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
