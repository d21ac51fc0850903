/**
 * The message operations end to end: reactions, pins, forward, recall, read status and urgent
 * notifications against the sandbox (wiring only; the rules are tested beside the shortcuts and
 * the sandbox routes). The commands run in process (the CLI's own code, config, keychain and
 * network, without a Deno start-up apiece); the first reaction runs as a hark process.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";

type Row = Record<string, unknown>;

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

Deno.test("im message operations against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    const chat = env.sb.chats[0].chat_id;
    const [me] = env.sb.users;
    const other = env.sb.users.find((u) =>
      u.open_id !== me.open_id && env.sb.chats[0].member_open_ids.includes(u.open_id)
    )!;
    const sent = jsonOf<Row>(
      await env.runBot([
        "im",
        "+send",
        "--chat-id",
        chat,
        "--text",
        "release 2.1 is out",
        "--json",
      ]),
    );
    const message = String(sent.message_id);

    await t.step("+reaction-add, +reactions, +reaction-remove", async () => {
      const added = jsonOf<Row>(
        await env.runProcess([
          "im",
          "+reaction-add",
          "--message-id",
          message,
          "--emoji",
          "THUMBSUP",
          "--json",
        ]),
      );
      assert.equal(added.emoji_type, "THUMBSUP");
      assert.equal(added.operator_id, me.open_id);
      await env.runBot(["im", "+reaction-add", "--message-id", message, "--emoji", "DONE"]);
      const listed = jsonOf<Row[]>(
        await env.runBot(["im", "+reactions", "--message-id", message, "--json"]),
      );
      assert.deepEqual(listed.map((r) => r.emoji_type), ["THUMBSUP", "DONE"]);
      const page = await env.run(["im", "+reactions", "--message-id", message, "--limit", "1"]);
      assert.match(page.stderr, /--page-token \S+/);
      const removed = jsonOf<Row>(
        await env.run([
          "im",
          "+reaction-remove",
          "--message-id",
          message,
          "--reaction-id",
          String(added.reaction_id),
          "--json",
        ]),
      );
      assert.equal(removed.reaction_id, added.reaction_id);
      const left = jsonOf<Row[]>(
        await env.run([
          "im",
          "+reactions",
          "--message-id",
          message,
          "--emoji",
          "THUMBSUP",
          "--json",
        ]),
      );
      assert.deepEqual(left, []);
      const unknown = await env.run([
        "im",
        "+reaction-add",
        "--message-id",
        message,
        "--emoji",
        "NOPE",
        "--json",
      ]);
      assert.notEqual(unknown.code, 0);
      assert.match(JSON.parse(unknown.stderr).error.message, /231001/);
    });

    await t.step("+pin, +pins, +unpin", async () => {
      const pinned = jsonOf<Row>(await env.run(["im", "+pin", "--message-id", message, "--json"]));
      assert.equal(pinned.message_id, message);
      assert.equal(pinned.operator_id, me.open_id);
      const listed = jsonOf<Row[]>(await env.runBot(["im", "+pins", "--chat-id", chat, "--json"]));
      assert.deepEqual(listed.map((p) => p.message_id), [message]);
      await env.run(["im", "+unpin", "--message-id", message]);
      assert.deepEqual(
        jsonOf<Row[]>(await env.run(["im", "+pins", "--chat-id", chat, "--json"])),
        [],
      );
    });

    await t.step("+forward as the bot, once per idempotency key", async () => {
      const args = ["im", "+forward", "--message-id", message, "--user-id", other.open_id];
      const first = jsonOf<Row>(await env.runBot([...args, "--idempotency-key", "fw-1", "--json"]));
      const again = jsonOf<Row>(await env.runBot([...args, "--idempotency-key", "fw-1", "--json"]));
      assert.equal(first.message_id, again.message_id);
      assert.notEqual(first.message_id, message);
      const asUser = await env.run([...args, "--as", "user", "--json"]);
      assert.equal(asUser.code, 2, asUser.stderr);
    });

    await t.step("+message-read-users and +urgent as the bot", async () => {
      await env.run(["im", "+send", "--chat-id", chat, "--text", "read it"]);
      const readers = jsonOf<Row[]>(
        await env.runBot(["im", "+message-read-users", "--message-id", message, "--json"]),
      );
      assert.deepEqual(readers.map((r) => r.user_id), [me.open_id]);
      const buzzed = jsonOf<Row[]>(
        await env.runBot([
          "im",
          "+urgent",
          "--message-id",
          message,
          "--user-ids",
          `${other.open_id},ou_stranger`,
          "--json",
        ]),
      );
      assert.deepEqual(buzzed.map((r) => r.status), ["notified", "refused"]);
      const phone = await env.runBot([
        "im",
        "+urgent",
        "--message-id",
        message,
        "--user-ids",
        other.open_id,
        "--kind",
        "phone",
        "--json",
      ]);
      assert.notEqual(phone.code, 0);
      assert.match(JSON.parse(phone.stderr).error.message, /--yes/);
    });

    await t.step("+recall asks for --yes, then recalls; a second recall is refused", async () => {
      const refused = await env.runBot(["im", "+recall", "--message-id", message, "--json"]);
      assert.notEqual(refused.code, 0);
      assert.match(JSON.parse(refused.stderr).error.message, /--yes/);
      const done = jsonOf<Row>(
        await env.runBot(["im", "+recall", "--message-id", message, "--yes", "--json"]),
      );
      assert.deepEqual(done, { message_id: message, recalled: true });
      const again = await env.runBot(["im", "+recall", "--message-id", message, "--yes", "--json"]);
      assert.match(JSON.parse(again.stderr).error.message, /230011/);
    });

    await t.step(
      "+chat-create --owner --bots as the bot; listings go on at --page-token",
      async () => {
        const created = jsonOf<Row>(
          await env.runBot([
            "im",
            "+chat-create",
            "--name",
            "owned e2e",
            "--members",
            other.open_id,
            "--owner",
            other.open_id,
            "--bots",
            env.sb.appId,
            "--set-bot-manager",
            "--json",
          ]),
        );
        assert.equal(created.owner_id, other.open_id);
        const first = await env.run([
          "im",
          "+messages",
          "--chat-id",
          chat,
          "--limit",
          "2",
          "--json",
        ]);
        const token = /--page-token (\S+)/.exec(first.stderr)?.[1];
        assert.ok(token, first.stderr);
        const next = jsonOf<Row[]>(
          await env.run([
            "im",
            "+messages",
            "--chat-id",
            chat,
            "--limit",
            "2",
            "--page-token",
            token,
            "--json",
          ]),
        );
        const seen = jsonOf<Row[]>(first).map((m) => m.message_id);
        assert.equal(next.length, 2);
        assert.ok(next.every((m) => !seen.includes(m.message_id)), "the next page, not the first");
        const chats = await env.run(["im", "+chats", "--limit", "1", "--json"]);
        const chatToken = /--page-token (\S+)/.exec(chats.stderr)?.[1];
        assert.ok(chatToken, chats.stderr);
        assert.equal(
          (await env.run(["im", "+chats", "--limit", "1", "--page-token", chatToken, "--json"]))
            .code,
          0,
        );
      },
    );

    await t.step("+send --audio, --video with --cover, --image-key, --mention", async () => {
      const dir = await Deno.makeTempDir({ prefix: "hark-av-e2e-" });
      try {
        const voice = `${dir}/voice.opus`;
        const clip = `${dir}/clip.mp4`;
        const cover = `${dir}/cover.png`;
        await Deno.writeFile(voice, new TextEncoder().encode("OggS opus"));
        await Deno.writeFile(clip, new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 1]));
        await Deno.writeFile(cover, PNG);
        const send = (args: string[]) =>
          env.runBot(["im", "+send", "--chat-id", chat, ...args, "--json"]);
        const audio = jsonOf<Row>(await send(["--audio", voice]));
        assert.equal(audio.msg_type, "audio");
        const video = jsonOf<{ msg_type: string; body: { content: string } }>(
          await send(["--video", clip, "--cover", cover]),
        );
        assert.equal(video.msg_type, "media");
        const { image_key } = JSON.parse(video.body.content);
        const again = jsonOf<Row>(await send(["--image-key", image_key]));
        assert.equal(again.msg_type, "image");
        const mention = jsonOf<{ body: { content: string } }>(
          await send(["--text", "your turn", "--mention", other.open_id]),
        );
        assert.match(mention.body.content, new RegExp(`@_user_1|${other.open_id}`));
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });

    await t.step("+messages --user-id reads the one-to-one chat", async () => {
      await env.run(["im", "+send", "--user-id", other.open_id, "--text", "just us"]);
      const rows = jsonOf<{ text: string }[]>(
        await env.run(["im", "+messages", "--user-id", other.open_id, "--json"]),
      );
      assert.equal(rows[0].text, "just us");
      const bot = await env.runBot(["im", "+messages", "--user-id", other.open_id, "--json"]);
      assert.equal(bot.code, 2, bot.stderr);
    });

    await t.step("+chats with Lark's search filters", async () => {
      const found = jsonOf<Row[]>(
        await env.run([
          "im",
          "+chats",
          "--member-ids",
          other.open_id,
          "--search-types",
          "private,public_joined",
          "--sort-by",
          "member_count_desc",
          "--page-all",
          "--json",
        ]),
      );
      assert.ok(found.some((c) => c.chat_id === chat), JSON.stringify(found));
      assert.ok(found.every((c) => typeof c.name === "string"));
    });

    await t.step("bad input fails before any request; --dry-run sends nothing", async () => {
      await env.clearRequests();
      const cases: [string[], string][] = [
        [["+reaction-add", "--message-id", "oc_1", "--emoji", "OK"], "--message-id"],
        [["+reaction-add", "--message-id", message, "--emoji", "thumbs up"], "--emoji"],
        [["+reactions", "--message-id", message, "--page-token", "a b"], "--page-token"],
        [["+pins", "--chat-id", "om_1"], "--chat-id"],
        [["+forward", "--message-id", message, "--as", "bot"], "--chat-id"],
        [
          ["+urgent", "--message-id", message, "--user-ids", "ou_1,on_1", "--as", "bot"],
          "--user-ids",
        ],
      ];
      for (const [args, flag] of cases) {
        const run = await env.run(["im", ...args, "--json"]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.ok(JSON.parse(run.stderr).error.message.includes(flag), run.stderr);
      }
      const dry = jsonOf<{ method: string; url: string; body: unknown }[]>(
        await env.runBot(["im", "+recall", "--message-id", message, "--dry-run"]),
      );
      assert.equal(dry[0].method, "DELETE");
      assert.match(dry[0].url, new RegExp(`/open-apis/im/v1/messages/${message}$`));
      assert.deepEqual(await env.requests(), []);
    });
  } finally {
    await env.close();
  }
});
