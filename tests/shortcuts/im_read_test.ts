/**
 * Reading messages end to end (`im +messages`, `+thread`, `+get`) against the sandbox's seeded
 * chats: in process, the first run as a real hark process (the wiring).
 */

import assert from "node:assert/strict";
import { CHAT_WITHOUT_BOT, CHAT_WITHOUT_FIRST_USER } from "../../sandbox/mod.ts";
import { createShortcutEnv, jsonOf, type ShortcutEnv } from "./_shortcut_env.ts";

interface Row {
  message_id: string;
  msg_type: string;
  create_time: string;
  thread_id?: string;
  chat_id: string;
  text: string;
  sender: { id: string; sender_type: string; sender_name?: string };
  body?: { content: string };
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

async function allMessages(env: ShortcutEnv, chatId: string): Promise<Row[]> {
  return jsonOf<Row[]>(
    await env.run([
      "im",
      "+messages",
      "--chat-id",
      chatId,
      "--page-all",
      "--order",
      "asc",
      "--json",
    ]),
  );
}

Deno.test("im +messages, +thread and +get against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  const chat = env.sb.chats[0].chat_id;
  try {
    const history = await allMessages(env, chat);

    await t.step("--limit gives the last messages, newest first, with names and text", async () => {
      await env.clearRequests();
      const rows = jsonOf<Row[]>(
        await env.runProcess(["im", "+messages", "--chat-id", chat, "--limit", "5", "--json"]),
      );
      assert.deepEqual(
        rows.map((r) => r.message_id),
        history.slice(-5).reverse().map((r) => r.message_id),
      );
      for (const row of rows) {
        assert.match(row.create_time, RFC3339);
        assert.ok(row.sender.sender_name, `no sender name on ${row.message_id}`);
        assert.equal(typeof row.text, "string");
      }
      const requests = await env.requests();
      assert.equal(requests.length, 1);
      assert.equal(requests[0].query.with_sender_name, "true");
      assert.equal(requests[0].query.page_size, "5");
    });

    await t.step("--page-all reads every page, 50 at a time", async () => {
      await env.clearRequests();
      const all = await allMessages(env, chat);
      assert.equal(all.length, history.length);
      assert.equal((await env.requests()).length, Math.ceil(history.length / 50));
      const times = all.map((r) => Date.parse(r.create_time));
      assert.deepEqual(times, [...times].sort((a, b) => a - b));
    });

    await t.step("--start and --end bound the window, a date --end includes its day", async () => {
      const day = history[Math.floor(history.length / 2)].create_time.slice(0, 10);
      const inDay = history.filter((r) => r.create_time.startsWith(day));
      const rows = jsonOf<Row[]>(
        await env.run([
          "im",
          "+messages",
          "--chat-id",
          chat,
          "--start",
          day,
          "--end",
          day,
          "--order",
          "asc",
          "--page-all",
          "--json",
        ]),
      );
      assert.deepEqual(rows.map((r) => r.message_id), inDay.map((r) => r.message_id));
    });

    await t.step(
      "the table shows time, sender and readable text; files and posts summarised",
      async () => {
        const table = await env.run([
          "im",
          "+messages",
          "--chat-id",
          chat,
          "--page-all",
          "--format",
          "table",
        ]);
        assert.equal(table.code, 0, table.stderr);
        assert.match(table.stdout.split("\n")[0], /^TIME\s+SENDER\s+TEXT\s+MESSAGE ID/);
        const file = history.find((r) => r.msg_type === "file");
        if (file) {
          const { file_name } = JSON.parse(file.body!.content);
          assert.ok(table.stdout.includes(`[file ${file_name}`), "file summarised");
        }
        const csv = await env.run([
          "im",
          "+messages",
          "--chat-id",
          chat,
          "--limit",
          "3",
          "--format",
          "csv",
        ]);
        assert.equal(csv.stdout.split(/\r?\n/)[0], "TIME,SENDER,TEXT,MESSAGE ID,TYPE,THREAD ID");
      },
    );

    await t.step("control and bidi characters: escaped in tables, exact in JSON", async () => {
      let found: { chat: string; row: Row } | undefined;
      for (const seeded of env.sb.chats.slice(0, CHAT_WITHOUT_FIRST_USER)) {
        const row = (await allMessages(env, seeded.chat_id)).find((r) =>
          ["\u001b", "\u202e", "\u0000"].some((c) => r.text.includes(c))
        );
        if (row) {
          found = { chat: seeded.chat_id, row };
          break;
        }
      }
      assert.ok(found, "the seed holds a hostile message");
      const json = jsonOf<Row[]>(
        await env.run(["im", "+get", "--message-id", found.row.message_id, "--json"]),
      );
      assert.equal(json[0].text, found.row.text);
      assert.equal(JSON.parse(json[0].body!.content).text, found.row.text);
      for (const format of ["table", "csv"]) {
        const run = await env.run([
          "im",
          "+get",
          "--message-id",
          found.row.message_id,
          "--format",
          format,
        ]);
        assert.equal(run.code, 0, run.stderr);
        // deno-lint-ignore no-control-regex
        assert.doesNotMatch(run.stdout, /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f\u202e]/);
        assert.ok(/\\x1b|\\u202e|\\x00/.test(run.stdout), `${format}: shown escaped`);
      }
    });

    await t.step("+thread lists a thread from its id or from any of its messages", async () => {
      const root = history.find((r) => r.thread_id)!;
      const byThread = jsonOf<Row[]>(
        await env.run(["im", "+thread", "--thread-id", root.thread_id!, "--json"]),
      );
      assert.equal(byThread[0].message_id, root.message_id);
      assert.ok(byThread.length >= 2, "the seeded thread has replies");
      assert.ok(byThread.every((r) => r.thread_id === root.thread_id));
      const reply = byThread[1];
      const byMessage = jsonOf<Row[]>(
        await env.run(["im", "+thread", "--message-id", reply.message_id, "--json"]),
      );
      assert.deepEqual(byMessage.map((r) => r.message_id), byThread.map((r) => r.message_id));
      const notThread = history.find((r) => !r.thread_id && !r.text.startsWith("This message"))!;
      const none = await env.run(["im", "+thread", "--message-id", notThread.message_id, "--json"]);
      assert.equal(none.code, 1);
      assert.match(JSON.parse(none.stderr).error.message, /not in a thread/);
    });

    await t.step("+get fetches several messages in one mget request", async () => {
      const ids = history.slice(0, 3).map((r) => r.message_id);
      await env.clearRequests();
      const rows = jsonOf<Row[]>(
        await env.run(["im", "+get", "--message-id", ids.join(","), "--json"]),
      );
      assert.deepEqual(rows.map((r) => r.message_id), ids);
      const requests = await env.requests();
      const mget = requests.filter((r) => r.path === "/open-apis/im/v1/messages/mget");
      assert.equal(mget.length, 1);
      assert.equal(mget[0].query.with_sender_name, undefined, "lark-cli sends none to mget");
      // mget leaves senders unnamed: basic_batch names up to ten people a call.
      const people = new Set(
        rows.filter((r) => r.sender.sender_type === "user").map((r) => r.sender.id),
      );
      const lookups = requests.filter((r) => r.path.startsWith("/open-apis/contact/v3/users/"));
      assert.deepEqual(
        lookups.map((r) => `${r.method} ${r.path}`),
        Array(Math.ceil(people.size / 10)).fill("POST /open-apis/contact/v3/users/basic_batch"),
      );
      for (const row of rows.filter((r) => r.sender.sender_type === "user")) {
        assert.ok(row.sender.sender_name, `${row.message_id} has no sender name`);
      }
    });

    await t.step("+get as the bot names senders with users/batch, fifty a call", async () => {
      const ids = history.slice(0, 20).map((r) => r.message_id);
      await env.clearRequests();
      const run = await env.runBot(["im", "+get", "--message-id", ids.join(","), "--json"]);
      assert.equal(run.code, 0, run.stderr);
      const rows = jsonOf<Row[]>(run);
      for (const row of rows.filter((r) => r.sender.sender_type === "user")) {
        assert.ok(row.sender.sender_name, `${row.message_id} has no sender name`);
      }
      const lookups = (await env.requests()).filter((r) => r.path.includes("/contact/v3/"));
      assert.deepEqual(lookups.map((r) => `${r.method} ${r.path}`), [
        "GET /open-apis/contact/v3/users/batch",
      ]);
    });

    await t.step("--as bot reads a chat the bot is in", async () => {
      const bot = await env.runBot([
        "im",
        "+messages",
        "--chat-id",
        chat,
        "--limit",
        "3",
        "--json",
      ]);
      assert.equal(bot.code, 0, bot.stderr);
      assert.equal(jsonOf<Row[]>(bot).length, 3);
    });

    await t.step("a bot or user outside the chat gets Lark's 230002, explained", async () => {
      const outside = env.sb.chats[CHAT_WITHOUT_BOT].chat_id;
      const bot = await env.runBot(["im", "+messages", "--chat-id", outside, "--json"]);
      assert.equal(bot.code, 2);
      const error = JSON.parse(bot.stderr).error;
      assert.equal(error.type, "permission");
      assert.match(error.message, /^The app's bot is not a member of chat "oc_\w+": .*230002/);
      assert.match(error.message, /Bot\/User can NOT be out of the chat/);
      // SPEC's exit code and type stay; no sign-in puts the bot in the chat.
      assert.equal(error.recovery.command, "hark im +chats --as bot");
      assert.doesNotMatch(bot.stderr, /auth login/);
      const text = await env.runBot(["im", "+messages", "--chat-id", outside]);
      assert.match(text.stderr, /Add the app's bot to the chat/);
      const user = await env.run([
        "im",
        "+messages",
        "--chat-id",
        env.sb.chats[CHAT_WITHOUT_FIRST_USER].chat_id,
        "--json",
      ]);
      assert.equal(user.code, 2);
      assert.match(JSON.parse(user.stderr).error.message, /^You are not a member of chat/);
      assert.equal(JSON.parse(user.stderr).error.recovery.command, "hark im +chats");
    });

    await t.step(
      "a chat id that does not exist leads to the chat list, not a sign-in",
      async () => {
        const missing = await env.run(["im", "+messages", "--chat-id", "oc_doesnotexist"]);
        assert.equal(missing.code, 2, missing.stderr);
        assert.match(missing.stderr, /code 230001/);
        assert.match(missing.stderr, /check --chat-id "oc_doesnotexist"/);
        assert.doesNotMatch(missing.stderr, /auth login/);
        assert.match(missing.stderr, /Run: hark im \+chats$/m);
      },
    );

    await t.step("bad input fails before any request, naming the flag", async () => {
      await env.clearRequests();
      const cases: [string[], string][] = [
        [["im", "+messages"], "--chat-id"],
        [["im", "+messages", "--chat-id", "general"], "--chat-id"],
        [["im", "+messages", "--chat-id", chat, "--limit", "0"], "--limit"],
        [["im", "+messages", "--chat-id", chat, "--order", "newest"], "--order"],
        [
          ["im", "+messages", "--chat-id", chat, "--start", "2026-11-02", "--end", "2026-11-01"],
          "--end",
        ],
        [["im", "+messages", "--chat-id", chat, "--start", "yesterday-ish"], "--start"],
        [["im", "+thread"], "--message-id"],
        [["im", "+thread", "--message-id", "om_1", "--thread-id", "omt_1"], "--thread-id"],
        [["im", "+thread", "--thread-id", "om_1"], "--thread-id"],
        [["im", "+get"], "--message-id"],
        [["im", "+get", "--message-id", "om_1,,om_2"], "--message-id"],
      ];
      for (const [args, flag] of cases) {
        const run = await env.run([...args, "--json"]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.ok(JSON.parse(run.stderr).error.message.includes(flag), run.stderr);
      }
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("--dry-run prints the requests, sends nothing, needs no sign-in", async () => {
      await env.clearRequests();
      const dry = jsonOf<{ url: string }[]>(
        await env.run(["im", "+thread", "--message-id", history[0].message_id, "--dry-run"], {
          env: { HARK_USER_ACCESS_TOKEN: undefined },
        }),
      );
      assert.equal(dry.length, 2);
      assert.match(dry[1].url, /container_id_type=thread/);
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
