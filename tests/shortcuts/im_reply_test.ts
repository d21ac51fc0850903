/**
 * `im +reply` end to end against the sandbox: in process, the first run as a real hark process
 * (the wiring).
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

interface Reply {
  message_id: string;
  parent_id?: string;
  root_id?: string;
  thread_id?: string;
  msg_type: string;
  text: string;
}

interface Stored {
  message_id: string;
  uuid: string | null;
}

Deno.test("im +reply against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  const chat = env.sb.chats[0].chat_id;
  try {
    const [target] = jsonOf<{ message_id: string; thread_id?: string }[]>(
      await env.runProcess(["im", "+messages", "--chat-id", chat, "--limit", "1", "--json"]),
    );
    const stored = () => env.get<Stored[]>("/sandbox/messages");

    await t.step("a text reply answers the message in the chat", async () => {
      const reply = jsonOf<Reply>(
        await env.run([
          "im",
          "+reply",
          "--message-id",
          target.message_id,
          "--text",
          "On it",
          "--json",
        ]),
      );
      assert.equal(reply.parent_id, target.message_id);
      assert.equal(reply.text, "On it");
      const [request] = (await env.requests()).filter((r) => r.path.endsWith("/reply"));
      assert.equal((request.body as { reply_in_thread: boolean }).reply_in_thread, false);
    });

    await t.step("--in-thread starts a thread; +thread then shows the reply", async () => {
      await env.clearRequests();
      const reply = jsonOf<Reply>(
        await env.run([
          "im",
          "+reply",
          "--message-id",
          target.message_id,
          "--in-thread",
          "--markdown",
          "**Fixed** in #42",
          "--json",
        ]),
      );
      assert.match(reply.thread_id ?? "", /^omt_/);
      assert.equal(reply.msg_type, "post");
      const thread = jsonOf<Reply[]>(
        await env.run(["im", "+thread", "--thread-id", reply.thread_id!, "--json"]),
      );
      assert.deepEqual(thread.map((m) => m.message_id).slice(-1), [reply.message_id]);
    });

    await t.step("piped stdin is the text; --as bot replies as the app", async () => {
      const piped = jsonOf<Reply>(
        await env.run(["im", "+reply", "--message-id", target.message_id, "--json"], {
          stdin: "from a pipe\n",
        }),
      );
      assert.equal(piped.text, "from a pipe");
      const bot = await env.runBot([
        "im",
        "+reply",
        "--message-id",
        target.message_id,
        "--text",
        "bot",
      ]);
      assert.equal(bot.code, 0, bot.stderr);
    });

    await t.step("the same --idempotency-key replies once; a retry after a drop too", async () => {
      const args = ["im", "+reply", "--message-id", target.message_id, "--text", "once"];
      const before = (await stored()).length;
      const first = jsonOf<Reply>(await env.run([...args, "--idempotency-key", "r-1", "--json"]));
      const second = jsonOf<Reply>(await env.run([...args, "--idempotency-key", "r-1", "--json"]));
      assert.equal(first.message_id, second.message_id);
      assert.equal((await stored()).length, before + 1);
      await env.post("/sandbox/faults", {
        route: `POST /open-apis/im/v1/messages/${target.message_id}/reply`,
        kind: "drop",
        stage: "after",
        times: 1,
      });
      await env.clearRequests();
      const retried = await env.run([...args, "--json"]);
      assert.equal(retried.code, 0, retried.stderr);
      const attempts = await env.requests();
      assert.equal(attempts.length, 2);
      assert.equal(
        (attempts[0].body as { uuid: string }).uuid,
        (attempts[1].body as { uuid: string }).uuid,
      );
      assert.equal((await stored()).length, before + 2);
    });

    await t.step("bad input fails before any request; --dry-run sends nothing", async () => {
      await env.clearRequests();
      const cases: [string[], string][] = [
        [["--text", "x"], "--message-id"],
        [["--message-id", "oc_1", "--text", "x"], "--message-id"],
        [["--message-id", target.message_id], "--text"],
        [["--message-id", target.message_id, "--text", "a", "--markdown", "b"], "--markdown"],
        [
          ["--message-id", target.message_id, "--text", "a", "--idempotency-key", "k".repeat(51)],
          "--idempotency-key",
        ],
      ];
      for (const [flags, flag] of cases) {
        const run = await env.run(["im", "+reply", ...flags, "--json"], { stdin: "" });
        assert.equal(run.code, 2, run.stderr);
        assert.ok(JSON.parse(run.stderr).error.message.includes(flag), run.stderr);
      }
      const dry = jsonOf<{ url: string; body: { uuid: string } }[]>(
        await env.run([
          "im",
          "+reply",
          "--message-id",
          target.message_id,
          "--text",
          "x",
          "--dry-run",
        ], {
          env: { HARK_USER_ACCESS_TOKEN: undefined },
        }),
      );
      assert.match(dry[0].url, /\/messages\/om_\w+\/reply$/);
      assert.match(dry[0].body.uuid, /^[0-9a-f-]{36}$/);
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
