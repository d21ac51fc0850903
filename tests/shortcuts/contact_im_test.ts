import assert from "node:assert/strict";
import { join } from "node:path";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

interface Message {
  message_id: string;
  chat_id: string;
  msg_type: string;
  body: { content: string };
  uuid: string | null;
}

Deno.test("contact +search-user against the sandbox", async (t) => {
  const env = await createShortcutEnv();
  try {
    await t.step("--query and --limit return one page", async () => {
      await env.clearRequests();
      const users = jsonOf<{ name: string; open_id: string }[]>(
        await env.run(["contact", "+search-user", "--query", "a", "--limit", "3", "--json"]),
      );
      assert.equal(users.length, 3);
      const [request] = await env.requests();
      assert.deepEqual(request.query, { query: "a", page_size: "3" });
    });

    await t.step("--page-all follows page_token to the end", async () => {
      const page = jsonOf<unknown[]>(
        await env.run(["contact", "+search-user", "--query", "a", "--limit", "200", "--json"]),
      );
      await env.clearRequests();
      const all = jsonOf<unknown[]>(
        await env.run(["contact", "+search-user", "--query", "a", "--limit", "2", "--page-all"]),
      );
      assert.equal(all.length, page.length);
      assert.equal((await env.requests()).length, Math.ceil(all.length / 2));
    });

    await t.step("table and CSV use the declared columns", async () => {
      const table = await env.run(["contact", "+search-user", "--query", "a", "--format", "table"]);
      assert.match(table.stdout.split("\n")[0], /^NAME\s+OPEN ID\s+USER ID\s+DEPARTMENTS/);
      const csv = await env.run(["contact", "+search-user", "--query", "a", "--format", "csv"]);
      assert.equal(csv.stdout.split(/\r?\n/)[0], "NAME,OPEN ID,USER ID,DEPARTMENTS");
    });

    await t.step(
      "--query is required, from a flag or HARK_CONTACT_QUERY; bots cannot search",
      async () => {
        const missing = await env.run(["contact", "+search-user", "--json"]);
        assert.equal(missing.code, 2);
        assert.equal(JSON.parse(missing.stderr).error.type, "validation");
        const fromEnv = await env.run(["contact", "+search-user", "--json"], {
          env: { HARK_CONTACT_QUERY: "a" },
        });
        assert.equal(fromEnv.code, 0, fromEnv.stderr);
        const bot = await env.run([
          "contact",
          "+search-user",
          "--query",
          "a",
          "--as",
          "bot",
          "--json",
        ]);
        assert.equal(bot.code, 2);
        assert.match(JSON.parse(bot.stderr).error.message, /cannot run as "bot"/);
      },
    );
  } finally {
    await env.close();
  }
});

Deno.test("im +send against the sandbox", async (t) => {
  const env = await createShortcutEnv();
  const messages = () => env.get<Message[]>("/sandbox/messages");
  const chat = env.sb.chats[0].chat_id;
  try {
    await t.step("--chat-id with --text sends a text message", async () => {
      const sent = jsonOf<Message>(
        await env.run(["im", "+send", "--chat-id", chat, "--text", "Deploy finished", "--json"]),
      );
      const [stored] = (await messages()).filter((m) => m.message_id === sent.message_id);
      assert.equal(stored.chat_id, chat);
      assert.deepEqual(JSON.parse(stored.body.content), { text: "Deploy finished" });
      assert.match(stored.uuid!, /^[0-9a-f-]{36}$/);
    });

    await t.step("--user-id with --markdown sends a post", async () => {
      const sent = jsonOf<Message>(
        await env.run([
          "im",
          "+send",
          "--user-id",
          env.sb.users[1].open_id,
          "--markdown",
          "**done**",
          "--json",
        ]),
      );
      assert.equal(sent.msg_type, "post");
      const content = JSON.parse(sent.body.content);
      assert.deepEqual(content.zh_cn.content, [[{ tag: "md", text: "**done**" }]]);
    });

    await t.step("--email with the text piped on stdin", async () => {
      const sent = jsonOf<Message>(
        await env.run(["im", "+send", "--email", env.sb.users[2].email, "--json"], {
          stdin: "Build #42 passed\n",
        }),
      );
      assert.deepEqual(JSON.parse(sent.body.content), { text: "Build #42 passed" });
    });

    await t.step("--content with --msg-type is sent as given", async () => {
      const sent = jsonOf<Message>(
        await env.run([
          "im",
          "+send",
          "--chat-id",
          chat,
          "--msg-type",
          "text",
          "--content",
          '{"text": "raw"}',
          "--format",
          "json",
        ]),
      );
      assert.deepEqual(JSON.parse(sent.body.content), { text: "raw" });
    });

    await t.step("the chat id from HARK_IM_CHAT_ID and values from --input", async () => {
      const fromEnv = jsonOf<Message>(
        await env.run(["im", "+send", "--text", "env", "--json"], {
          env: { HARK_IM_CHAT_ID: chat },
        }),
      );
      assert.equal(fromEnv.chat_id, chat);
      const path = join(env.hark.dir, "message.json");
      await Deno.writeTextFile(path, JSON.stringify({ chat_id: "oc_wrong", text: "from file" }));
      const fromFile = jsonOf<Message>(
        await env.run(["im", "+send", "--input", path, "--chat-id", chat, "--json"]),
      );
      assert.equal(fromFile.chat_id, chat, "the flag outranks the file");
      assert.deepEqual(JSON.parse(fromFile.body.content), { text: "from file" });
    });

    await t.step("the same --idempotency-key posts once", async () => {
      const before = (await messages()).length;
      const args = ["im", "+send", "--chat-id", chat, "--text", "once", "--idempotency-key", "k-1"];
      const first = jsonOf<Message>(await env.run([...args, "--json"]));
      const second = jsonOf<Message>(await env.run([...args, "--json"]));
      assert.equal(first.message_id, second.message_id);
      assert.equal((await messages()).length, before + 1);
    });

    await t.step("a send retried after a dropped connection posts once", async () => {
      for (const kind of ["drop", "status"]) {
        await env.post("/sandbox/faults", {
          route: "POST /open-apis/im/v1/messages",
          kind,
          status: 500,
          times: 1,
        });
        await env.clearRequests();
        const before = (await messages()).length;
        const run = await env.run(["im", "+send", "--chat-id", chat, "--text", kind, "--json"]);
        assert.equal(run.code, 0, run.stderr);
        const attempts = await env.requests();
        assert.equal(attempts.length, 2, kind);
        assert.equal(
          (attempts[0].body as { uuid: string }).uuid,
          (attempts[1].body as { uuid: string }).uuid,
        );
        const after = await messages();
        assert.equal(after.length, before + 1, kind);
      }
    });

    await t.step("exactly one receiver and one body, else exit 2 naming the flags", async () => {
      const none = await env.run(["im", "+send", "--text", "x", "--json"]);
      assert.equal(none.code, 2);
      assert.match(JSON.parse(none.stderr).error.message, /--chat-id, --user-id, --email/);
      const two = await env.run([
        "im",
        "+send",
        "--chat-id",
        chat,
        "--email",
        "a@b.c",
        "--text",
        "x",
        "--json",
      ]);
      assert.equal(two.code, 2);
      const noBody = await env.run(["im", "+send", "--chat-id", chat, "--json"]);
      assert.equal(noBody.code, 2);
      const badType = await env.run([
        "im",
        "+send",
        "--chat-id",
        chat,
        "--content",
        "{}",
        "--msg-type",
        "fax",
        "--json",
      ]);
      assert.equal(badType.code, 2);
      assert.match(JSON.parse(badType.stderr).error.message, /--msg-type/);
    });

    await t.step("--dry-run sends nothing; --as bot sends as the app", async () => {
      await env.clearRequests();
      const dry = jsonOf<{ body: { uuid: string } }[]>(
        await env.run(["im", "+send", "--chat-id", chat, "--text", "x", "--dry-run"]),
      );
      assert.equal(dry.length, 1);
      assert.deepEqual(await env.requests(), []);
      const bot = await env.run(
        ["im", "+send", "--chat-id", chat, "--text", "bot", "--as", "bot"],
        {
          env: { HARK_USER_ACCESS_TOKEN: undefined },
        },
      );
      assert.equal(bot.code, 0, bot.stderr);
      const last = (await messages()).at(-1) as Message & { sender: { sender_type: string } };
      assert.equal(last.sender.sender_type, "app");
    });
  } finally {
    await env.close();
  }
});
