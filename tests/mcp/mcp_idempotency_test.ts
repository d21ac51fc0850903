/**
 * The idempotency `hark mcp` claims, end to end with the SDK's client against the sandbox (issue
 * 21, Medium 9): a tool hinted idempotent must apply an identical call once. Each of `im_send`,
 * `im_reply`, `calendar_create`, `im_chat_create` and `im_chat_members_add` is called twice
 * with the same arguments and what the sandbox holds afterwards is counted; other arguments, or
 * a new key, make a new one.
 * `calendar_update`, which can rewrite a series and remove attendees, is destructive and runs
 * only with `yes: true`.
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf, type ShortcutEnv } from "../shortcuts/_shortcut_env.ts";
import { connectHarkMcp, type HarkMcp } from "./_mcp_client.ts";

interface ToolJson {
  name: string;
  description: string;
  annotations?: { idempotentHint?: boolean; destructiveHint?: boolean };
  inputSchema: { properties: Record<string, { description: string }> };
}

async function call(mcp: HarkMcp, name: string, args: Record<string, unknown>) {
  const result = await mcp.client.callTool({ name, arguments: args });
  assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result)}`);
  return result.structuredContent as Record<string, unknown>;
}

async function messagesWith(env: ShortcutEnv, text: string): Promise<number> {
  const messages = await env.get<{ body: { content: string } }[]>("/sandbox/messages");
  return messages.filter((m) => m.body.content === JSON.stringify({ text })).length;
}

async function eventsNamed(env: ShortcutEnv, summary: string): Promise<number> {
  return (await env.get<{ summary: string }[]>("/sandbox/events"))
    .filter((e) => e.summary === summary).length;
}

async function chatsNamed(env: ShortcutEnv, name: string): Promise<number> {
  const chats = jsonOf<{ name: string }[]>(await env.run(["im", "+chats", "--page-all", "--json"]));
  return chats.filter((c) => c.name === name).length;
}

function day(offset: number, time: string): string {
  const date = new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return `${date} ${time}`;
}

Deno.test("hark mcp: the tools hinted idempotent apply an identical call once", async (t) => {
  const env = await createShortcutEnv();
  const mcp = await connectHarkMcp({ ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token });
  const chat = env.sb.chats[0].chat_id;
  try {
    await t.step("the claim is made, and says how", async () => {
      const { tools } = await mcp.client.listTools() as { tools: ToolJson[] };
      for (const name of ["im_send", "im_reply", "calendar_create", "im_chat_create"]) {
        const tool = tools.find((t) => t.name === name)!;
        assert.equal(tool.annotations?.idempotentHint, true, name);
        assert.match(tool.description, /Identical calls within 10 minutes are applied once/);
        assert.match(
          tool.inputSchema.properties.idempotency_key.description,
          /^the idempotency key: .* derived from the other arguments/,
        );
        assert.doesNotMatch(tool.description, /has no further effect/, name);
      }
    });

    await t.step("im_send twice posts one message", async () => {
      const args = { chat_id: chat, text: "deploy finished" };
      const first = await call(mcp, "im_send", args);
      const second = await call(mcp, "im_send", args);
      assert.equal(second.message_id, first.message_id);
      assert.equal(await messagesWith(env, "deploy finished"), 1);
      await call(mcp, "im_send", { ...args, text: "deploy finished again" });
      await call(mcp, "im_send", { ...args, idempotency_key: "on-purpose" });
      assert.equal(await messagesWith(env, "deploy finished"), 2, "a new key posts again");
      assert.equal(await messagesWith(env, "deploy finished again"), 1);
    });

    await t.step("im_reply twice posts one reply", async () => {
      const [parent] = (await env.get<{ message_id: string; chat_id: string }[]>(
        "/sandbox/messages",
      )).filter((m) => m.chat_id === chat);
      const args = { message_id: parent.message_id, text: "on it" };
      const first = await call(mcp, "im_reply", args);
      const second = await call(mcp, "im_reply", args);
      assert.equal(second.message_id, first.message_id);
      assert.equal(await messagesWith(env, "on it"), 1);
    });

    await t.step("calendar_create twice makes one event", async () => {
      const args = {
        summary: "Idempotent review",
        start: day(3, "10:00"),
        end: day(3, "11:00"),
      };
      const first = await call(mcp, "calendar_create", args);
      const second = await call(mcp, "calendar_create", args);
      assert.equal(second.event_id, first.event_id);
      assert.equal(await eventsNamed(env, "Idempotent review"), 1);
    });

    await t.step("im_chat_create twice makes one chat", async () => {
      const args = { name: "Idempotent room", members: env.sb.users[1].open_id };
      const first = await call(mcp, "im_chat_create", args);
      const second = await call(mcp, "im_chat_create", args);
      assert.equal(second.chat_id, first.chat_id);
      assert.equal(await chatsNamed(env, "Idempotent room"), 1);
    });

    await t.step("im_chat_members_add twice adds the members once", async () => {
      // A chat the signed-in user is in, and a user who is not in it yet.
      const room = env.sb.chats.find((c) => c.member_open_ids.includes(env.sb.users[0].open_id))!;
      const outsider = env.sb.users.find((u) => !room.member_open_ids.includes(u.open_id))!;
      const members = async () =>
        jsonOf<{ member_id: string }[]>(
          await env.run(["im", "+chat-members", "--chat-id", room.chat_id, "--page-all", "--json"]),
        ).map((m) => m.member_id).sort();
      const before = await members();
      const args = { chat_id: room.chat_id, members: outsider.open_id };
      await call(mcp, "im_chat_members_add", args);
      const once = await members();
      await call(mcp, "im_chat_members_add", args);
      assert.deepEqual(await members(), once);
      assert.deepEqual(once, [...before, outsider.open_id].sort());
    });

    await t.step("the key is derived, shown in a preview and kept by a retry", async () => {
      await env.clearRequests();
      const args = { chat_id: chat, text: "preview me" };
      const preview = await call(mcp, "im_send", { ...args, dry_run: true });
      const [planned] = preview.requests as { body: { uuid: string } }[];
      assert.match(planned.body.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-/);
      await call(mcp, "im_send", args);
      const [post] = (await env.requests()).filter((r) => r.method === "POST");
      assert.equal((post.body as { uuid: string }).uuid, planned.body.uuid);
    });
  } finally {
    await mcp.close();
    await env.close();
  }
});

Deno.test("hark mcp: calendar_update is destructive and runs only with yes: true", async () => {
  const env = await createShortcutEnv();
  const mcp = await connectHarkMcp({ ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token });
  try {
    const { tools } = await mcp.client.listTools() as { tools: ToolJson[] };
    const tool = tools.find((t) => t.name === "calendar_update")!;
    assert.equal(tool.annotations?.destructiveHint, true);
    assert.ok("yes" in tool.inputSchema.properties);
    assert.match(tool.description, /it runs only with yes: true/);

    const created = await call(mcp, "calendar_create", {
      summary: "To be moved",
      start: day(4, "09:00"),
      end: day(4, "10:00"),
    });
    await env.clearRequests();
    const change = { event_id: created.event_id, summary: "Moved" };
    const refused = await mcp.client.callTool({ name: "calendar_update", arguments: change });
    assert.equal(refused.isError, true);
    const { error } = refused.structuredContent as { error: { message: string; type: string } };
    assert.equal(error.type, "validation");
    assert.equal(
      error.message,
      "Cannot run calendar_update without confirmation: it may overwrite or remove data in " +
        "Lark with no way back",
    );
    assert.deepEqual(await env.requests(), [], "nothing was read or changed");
    const preview = await mcp.client.callTool({
      name: "calendar_update",
      arguments: { ...change, dry_run: true },
    });
    assert.equal(preview.isError, undefined, JSON.stringify(preview));
    const updated = await call(mcp, "calendar_update", { ...change, yes: true });
    assert.equal((updated.event as { summary: string }).summary, "Moved");
  } finally {
    await mcp.close();
    await env.close();
  }
});
