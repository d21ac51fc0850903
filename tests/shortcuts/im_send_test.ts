/**
 * `im +send` end to end against the sandbox: the rules in process (the same command code, no
 * Deno start-up per run), the first send of each test as a real hark process for the wiring.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

interface Message {
  message_id: string;
  chat_id: string;
  msg_type: string;
  body: { content: string };
  uuid: string | null;
  sender: { id: string };
}

Deno.test("im +send against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  const messages = () => env.get<Message[]>("/sandbox/messages");
  const chat = env.sb.chats[0].chat_id;
  try {
    await t.step("--chat-id with --text sends a text message", async () => {
      const sent = jsonOf<Message>(
        await env.runProcess([
          "im",
          "+send",
          "--chat-id",
          chat,
          "--text",
          "Deploy finished",
          "--json",
        ]),
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
      // Read back as Lark renders the md element: the text, bold, not its Markdown.
      const read = jsonOf<{ text: string; body: { content: string } }[]>(
        await env.run(["im", "+get", "--message-id", sent.message_id, "--json"]),
      );
      assert.equal(read[0].text, "done");
      assert.deepEqual(JSON.parse(read[0].body.content).content, [
        [{ tag: "text", text: "done", style: ["bold"] }],
      ]);
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

    await t.step("an unknown --email leads to the people search, not a sign-in", async () => {
      const unknown = await env.run([
        "im",
        "+send",
        "--email",
        "nobody@example.com",
        "--text",
        "hi",
      ]);
      assert.equal(unknown.code, 2, unknown.stderr);
      assert.match(unknown.stderr, /code 230001.*ext=invalid receive_id/);
      assert.match(unknown.stderr, /check --email "nobody@example.com"/);
      assert.doesNotMatch(unknown.stderr, /auth login/);
      assert.match(unknown.stderr, /Run: hark contact \+search-user --query nobody@example.com$/m);
      const json = await env.run([
        "im",
        "+send",
        "--email",
        "nobody@example.com",
        "--text",
        "hi",
        "--json",
      ]);
      const { error } = JSON.parse(json.stderr);
      assert.equal(error.code, 2);
      assert.equal(error.type, "auth");
      assert.equal(error.recovery.command, "hark contact +search-user --query nobody@example.com");
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

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

Deno.test("im +send of images, files and union ids against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  const chat = env.sb.chats[0].chat_id;
  const file = (name: string) => join(env.hark.dir, name);
  try {
    await t.step("--user-id on_… is a union id, not a user id", async () => {
      await env.clearRequests();
      const person = env.sb.users[1];
      const sent = await env.run(["im", "+send", "--user-id", person.union_id, "--text", "hi"]);
      assert.equal(sent.code, 0, sent.stderr);
      const [request] = await env.requests();
      assert.equal(request.query.receive_id_type, "union_id");
      assert.equal((request.body as { receive_id: string }).receive_id, person.union_id);
    });

    await t.step(
      "--image uploads as the app (tenant token), then sends its key as the user",
      async () => {
        await Deno.writeFile(file("chart.png"), PNG);
        await env.clearRequests();
        const sent = jsonOf<Message>(
          await env.runProcess([
            "im",
            "+send",
            "--chat-id",
            chat,
            "--image",
            file("chart.png"),
            "--json",
          ]),
        );
        assert.equal(sent.msg_type, "image");
        const [tenant, upload, message] = await env.requests();
        // Lark's image create doc takes `tenant_access_token` alone: the app's token is fetched,
        // the upload carries it, and the message goes as the user.
        assert.equal(tenant.path, "/open-apis/auth/v3/tenant_access_token/internal");
        assert.equal(upload.path, "/open-apis/im/v1/images");
        assert.match(upload.headers["content-type"], /^multipart\/form-data; boundary=/);
        assert.match(upload.headers.authorization, /^Bearer t-/);
        assert.equal(message.path, "/open-apis/im/v1/messages");
        assert.match(message.headers.authorization, /^Bearer u-/);
        assert.match(JSON.parse(sent.body.content).image_key, /^img_/);
        assert.equal(sent.sender.id, env.sb.users[0].open_id, "sent as the user");
      },
    );

    await t.step("--dry-run shows which token each request carries", async () => {
      const dry = jsonOf<{ url: string; token: string }[]>(
        await env.run(["im", "+send", "--chat-id", chat, "--file", file("chart.png"), "--dry-run"]),
      );
      assert.deepEqual(dry.map((r) => [new URL(r.url).pathname, r.token]), [
        ["/open-apis/im/v1/files", "tenant_access_token"],
        ["/open-apis/im/v1/messages", "user_access_token"],
      ]);
      const asBot = jsonOf<{ token: string }[]>(
        await env.runBot([
          "im",
          "+send",
          "--chat-id",
          chat,
          "--file",
          file("chart.png"),
          "--dry-run",
        ]),
      );
      assert.deepEqual(asBot.map((r) => r.token), ["tenant_access_token", "tenant_access_token"]);
    });

    await t.step(
      "without an app, an upload as the user fails before anything is sent, saying why",
      async () => {
        await env.clearRequests();
        const run = await env.run(
          ["im", "+send", "--chat-id", chat, "--image", file("chart.png"), "--json"],
          { env: { HARK_CONFIG: join(env.hark.dir, "no-app.json") } },
        );
        assert.equal(run.code, 2, run.stderr);
        const error = JSON.parse(run.stderr).error;
        assert.match(error.message, /No app is configured/);
        assert.match(
          error.recovery.suggestion,
          /^POST \/open-apis\/im\/v1\/images goes with the app's tenant token, the only token Lark takes for it/,
        );
        assert.deepEqual(await env.requests(), []);
      },
    );

    await t.step(
      "an app without im:resource: the upload's error names the console, nothing sent",
      async () => {
        await env.post("/sandbox/app_scopes", {
          scopes: [
            "im:message",
            "im:message.send_as_user",
            "im:message:send_as_bot",
            "offline_access",
          ],
        });
        try {
          await env.clearRequests();
          const run = await env.run([
            "im",
            "+send",
            "--chat-id",
            chat,
            "--image",
            file("chart.png"),
            "--json",
          ]);
          assert.equal(run.code, 1, run.stderr);
          const error = JSON.parse(run.stderr).error;
          assert.equal(error.type, "permission");
          assert.match(error.message, /99991672/);
          assert.match(error.recovery.url, /scope-apply\?clientID=.*&scopes=im%3Aresource/);
          const paths = (await env.requests()).map((r) => r.path);
          assert.ok(
            !paths.includes("/open-apis/im/v1/messages"),
            "no message after a failed upload",
          );
        } finally {
          const reset = await fetch(`${env.sb.baseUrl}/sandbox/app_scopes`, { method: "DELETE" });
          await reset.body?.cancel();
        }
      },
    );

    await t.step("--file as the bot uploads, sends, and the file comes back whole", async () => {
      const content = new TextEncoder().encode("name,value\nlatency,180\n");
      await Deno.writeFile(file("metrics.csv"), content);
      const sent = jsonOf<Message>(
        await env.runBot([
          "im",
          "+send",
          "--chat-id",
          chat,
          "--file",
          file("metrics.csv"),
          "--json",
        ]),
      );
      const key = JSON.parse(sent.body.content).file_key;
      assert.match(key, /^file_/);
      const back = await env.run([
        "im",
        "+download",
        "--message-id",
        sent.message_id,
        "--key",
        key,
        "--output",
        file("back.csv"),
      ]);
      assert.equal(back.code, 0, back.stderr);
      assert.deepEqual(await Deno.readFile(file("back.csv")), content);
    });

    await t.step("a bad file fails before anything is sent, naming the flag", async () => {
      await Deno.writeTextFile(file("notes.txt"), "not an image");
      await Deno.writeFile(file("empty.bin"), new Uint8Array());
      await env.clearRequests();
      const cases: [string[], string, RegExp][] = [
        [["--image", file("notes.txt")], "--image", /not an image Lark takes/],
        [["--image", file("missing.png")], "--image", /no such file/],
        [["--file", file("empty.bin")], "--file", /empty/],
        [["--file", env.hark.dir], "--file", /folder/],
        [["--file", file("notes.txt"), "--text", "x"], "--file", /Conflicting flags/],
      ];
      for (const [flags, flag, pattern] of cases) {
        const run = await env.run(["im", "+send", "--chat-id", chat, ...flags, "--json"]);
        assert.equal(run.code, 2, run.stderr);
        const error = JSON.parse(run.stderr).error;
        assert.match(error.message, pattern);
        assert.ok(error.message.includes(flag), error.message);
      }
      // A file over the limit, checked by its size alone (a sparse file: no disk used).
      const big = await Deno.open(file("big.png"), { write: true, create: true });
      await big.write(PNG);
      await big.truncate(10 * 1024 * 1024 + 1);
      big.close();
      const tooBig = await env.run(["im", "+send", "--chat-id", chat, "--image", file("big.png")]);
      assert.equal(tooBig.code, 2);
      assert.match(tooBig.stderr, /Lark takes images up to 10 MiB \(10,485,760 bytes\)/);
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("--dry-run shows the upload and the send, sends nothing", async () => {
      await env.clearRequests();
      const dry = jsonOf<{ url: string; body: Record<string, unknown> }[]>(
        await env.run([
          "im",
          "+send",
          "--chat-id",
          chat,
          "--file",
          file("metrics.csv"),
          "--dry-run",
        ], {
          env: { HARK_USER_ACCESS_TOKEN: undefined },
        }),
      );
      assert.equal(dry.length, 2);
      assert.match(dry[0].url, /\/open-apis\/im\/v1\/files$/);
      assert.deepEqual(dry[0].body, {
        file_type: "xls",
        file_name: "metrics.csv",
        file: `@${file("metrics.csv")}`,
      });
      assert.match(String(dry[1].body.content), /<file_key of the upload>/);
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
