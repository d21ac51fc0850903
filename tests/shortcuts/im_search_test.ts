/**
 * `im +messages-search` end to end against the sandbox (wiring only; the rules are tested beside
 * the shortcut): in process, the message it finds sent by a hark process.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

interface Row {
  message_id: string;
  chat_id: string;
  text?: string;
}

Deno.test("im +messages-search against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const chat = env.sb.chats[0].chat_id;
    const sent = jsonOf<{ message_id: string }>(
      await env.runProcess([
        "im",
        "+send",
        "--chat-id",
        chat,
        "--text",
        "zebra crossing 42",
        "--json",
      ]),
    );

    await t.step("finds a message by its words, with its text", async () => {
      await env.clearRequests();
      const rows = jsonOf<Row[]>(
        await env.run(["im", "+messages-search", "--query", "zebra crossing", "--json"]),
      );
      assert.deepEqual(rows.map((r) => r.message_id), [sent.message_id]);
      assert.equal(rows[0].chat_id, chat);
      const [search, mget] = await env.requests();
      assert.equal(search.path, "/open-apis/im/v1/messages/search");
      assert.deepEqual(search.body, { query: "zebra crossing" });
      assert.equal(mget.path, "/open-apis/im/v1/messages/mget");
    });

    await t.step("filters by chat and page by page with --page-token", async () => {
      const first = await env.run([
        "im",
        "+messages-search",
        "--chat-id",
        chat,
        "--limit",
        "2",
        "--json",
      ]);
      assert.equal(jsonOf<Row[]>(first).length, 2);
      const token = /--page-token (\S+)/.exec(first.stderr)?.[1];
      assert.ok(token, first.stderr);
      const next = jsonOf<Row[]>(
        await env.run([
          "im",
          "+messages-search",
          "--chat-id",
          chat,
          "--limit",
          "2",
          "--page-token",
          token,
          "--json",
        ]),
      );
      assert.equal(next.length, 2);
      assert.ok(next.every((r) => r.chat_id === chat));
    });

    await t.step("the bot cannot search; bad input and --dry-run send nothing", async () => {
      const bot = await env.runBot(["im", "+messages-search", "--query", "x", "--json"]);
      assert.equal(bot.code, 2, bot.stderr);
      await env.clearRequests();
      for (
        const [args, flag] of [
          [[], "--query"],
          [["--query", "x", "--sender", "on_1"], "--sender"],
          [["--query", "x", "--sender-type", "bot", "--exclude-sender-type", "bot"], "--exclude"],
          [["--query", "x", "--start", "2026-03-02", "--end", "2026-03-01"], "--end"],
        ] as [string[], string][]
      ) {
        const run = await env.run(["im", "+messages-search", ...args, "--json"]);
        assert.equal(run.code, 2, run.stderr);
        assert.ok(JSON.parse(run.stderr).error.message.includes(flag), run.stderr);
      }
      const dry = jsonOf<{ method: string; body: unknown }[]>(
        await env.run(["im", "+messages-search", "--query", "q", "--at-me", "--dry-run"]),
      );
      assert.deepEqual(dry[0].body, { query: "q", filter: { is_at_me: true } });
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
