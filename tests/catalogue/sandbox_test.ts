/**
 * The catalogue's calendar, contact and im methods that the sandbox implements, run as commands
 * against it (in process, the first as a real hark process from source, for the wiring): the
 * requests it receives are the ones the commands say they send, answers and errors come back as
 * hark prints them.
 */

import assert from "node:assert/strict";
import { sandboxUserToken } from "../support/sandbox_token.ts";
import { createShortcutEnv, jsonOf, type ShortcutEnv } from "../shortcuts/_shortcut_env.ts";

const DAY = 86_400;

/** The first seeded chat the bot is a member of (lark-mcp's im methods take the bot only). */
function botChat(env: ShortcutEnv): string {
  const chat = env.sb.chats.find((c) => c.bot_member);
  assert.ok(chat, "the seed has a chat with the bot");
  return chat.chat_id;
}

/** The business requests, the token requests left out. */
async function calls(env: ShortcutEnv) {
  return (await env.requests()).filter((r) => !r.path.startsWith("/open-apis/auth/"));
}

Deno.test("API commands run against the sandbox: calendar, contact and im", async (t) => {
  const env = await createShortcutEnv({ startDay: "2026-11-02" }, { inProcess: true });
  try {
    const start = Math.floor(Date.UTC(2026, 10, 2) / 1000);

    await t.step("calendar events instance-view lists the week's events", async () => {
      await env.clearRequests();
      const run = await env.runProcess([
        "calendar",
        "events",
        "instance-view",
        "--calendar-id",
        "primary",
        "--start-time",
        String(start),
        "--end-time",
        String(start + 7 * DAY),
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const data = jsonOf<{ items: { event_id: string; summary: string }[] }>(run);
      assert.ok(data.items.length > 0, "the seed has events that week");
      assert.ok(data.items.every((e) => typeof e.event_id === "string"));
      const [request] = await env.requests();
      assert.equal(request.method, "GET");
      assert.equal(request.path, "/open-apis/calendar/v4/calendars/primary/events/instance_view");
      assert.deepEqual(request.query, {
        start_time: String(start),
        end_time: String(start + 7 * DAY),
      });
      // The sandbox's log masks the token: the user's (u-) one was sent.
      assert.match(request.headers.authorization, /^Bearer u-/);
    });

    await t.step("the same request as --dry-run is what was sent, and sends nothing", async () => {
      await env.clearRequests();
      const run = await env.run([
        "calendar",
        "calendar-event",
        "instance-view",
        "--calendar-id",
        "primary",
        "--params",
        JSON.stringify({ start_time: String(start), end_time: String(start + DAY) }),
        "--dry-run",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const preview = jsonOf<{ method: string; url: string }>(run);
      assert.equal(preview.method, "GET");
      assert.equal(
        preview.url,
        `${env.sb.baseUrl}/open-apis/calendar/v4/calendars/primary/events/instance_view?` +
          `start_time=${start}&end_time=${start + DAY}`,
      );
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("calendar calendars primary runs as the bot too", async () => {
      const run = await env.runBot(["calendar", "calendars", "primary", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(Array.isArray(jsonOf<{ calendars: unknown[] }>(run).calendars));
    });

    await t.step("contact user get gets a user", async () => {
      const user = env.sb.users[1];
      const run = await env.run([
        "contact",
        "user",
        "get",
        "--user-id",
        user.open_id,
        "--user-id-type",
        "open_id",
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const data = jsonOf<{ user: { open_id: string; name: string } }>(run);
      assert.equal(data.user.open_id, user.open_id);
      assert.equal(data.user.name, user.name);
    });

    await t.step("im messages create sends a message as the bot, with its uuid", async () => {
      await env.clearRequests();
      const chat = botChat(env);
      const run = await env.run([
        "im",
        "messages",
        "create",
        "--receive-id-type",
        "chat_id",
        "--receive-id",
        chat,
        "--msg-type",
        "text",
        "--content",
        JSON.stringify({ text: "from the catalogue" }),
        "--uuid",
        "catalogue-e2e-1",
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const sent = jsonOf<{ message_id: string; chat_id: string }>(run);
      assert.equal(sent.chat_id, chat);
      const [request] = await calls(env);
      assert.match(request.headers.authorization, /^Bearer t-/, "the catalogue says: bot only");
      assert.equal(request.path, "/open-apis/im/v1/messages");
      assert.deepEqual(request.query, { receive_id_type: "chat_id" });
      assert.deepEqual(request.body, {
        receive_id: chat,
        msg_type: "text",
        content: JSON.stringify({ text: "from the catalogue" }),
        uuid: "catalogue-e2e-1",
      });
    });

    await t.step("im messages list --page-all follows the pages to the end", async () => {
      const chat = botChat(env);
      await env.clearRequests();
      const run = await env.run([
        "im",
        "messages",
        "list",
        "--container-id-type",
        "chat",
        "--container-id",
        chat,
        "--page-size",
        "2",
        "--page-all",
        "--max-pages",
        "3",
        "--format",
        "ndjson",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const requests = await calls(env);
      assert.ok(requests.length >= 2, `${requests.length} pages read`);
      assert.equal(requests[0].query.page_token, undefined);
      assert.ok(requests[1].query.page_token, "the next page asks with the token");
      assert.equal(lines.length, requests.length * 2, "two messages a page, every page written");
      assert.ok(lines.every((m) => typeof m.message_id === "string"));
    });

    await t.step("a permission error names the scope Lark says is missing", async () => {
      const { accessToken } = await sandboxUserToken(env.sb, { scopes: ["contact:user:search"] });
      const run = await env.run([
        "calendar",
        "events",
        "instance-view",
        "--calendar-id",
        "primary",
        "--start-time",
        String(start),
        "--end-time",
        String(start + DAY),
        "--json",
      ], { env: { HARK_USER_ACCESS_TOKEN: accessToken } });
      assert.equal(run.code, 1, run.stderr);
      const { error } = JSON.parse(run.stderr);
      assert.equal(error.type, "permission");
      assert.match(error.recovery.command, /^hark auth login --scope calendar:/);
    });

    await t.step(
      "bad input is exit 2 with the envelope, and nothing reaches the sandbox",
      async () => {
        await env.clearRequests();
        const run = await env.run([
          "im",
          "messages",
          "create",
          "--receive-id-type",
          "chat_id",
          "--receive-id",
          "oc_1",
          "--msg-type",
          "text",
          "--data",
          '{"content": 5}',
          "--json",
        ]);
        assert.equal(run.code, 2);
        const { error } = JSON.parse(run.stderr);
        assert.equal(error.type, "validation");
        assert.equal(
          error.message,
          'Invalid value 5 for --content (body "content"): expected text',
        );
        assert.doesNotMatch(run.stderr, /\bat .*\.ts:\d+/, "no stack trace");
        assert.deepEqual(await env.requests(), []);
      },
    );
  } finally {
    await env.close();
  }
});
