/**
 * Catalogue methods as MCP tools end to end: `hark mcp --tools <ids>` started by the official
 * MCP SDK's client, as a host does, against the sandbox: the calendar, contact and im methods it
 * implements (instance view, get a user, send a message), their hints, a dry run and an error.
 */

import assert from "node:assert/strict";
import { createShortcutEnv } from "../shortcuts/_shortcut_env.ts";
import { connectHarkMcp } from "./_mcp_client.ts";

interface ToolJson {
  name: string;
  inputSchema: { properties?: Record<string, unknown>; required?: string[] };
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
}

interface CallJson {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

const DAY = 86_400;

Deno.test("hark mcp --tools serves catalogue methods to the SDK's client against the sandbox", async (t) => {
  const env = await createShortcutEnv({ startDay: "2026-11-02" });
  const mcp = await connectHarkMcp({ ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token }, [
    "--tools",
    "calendar.v4.calendarEvent.instanceView,contact.v3.user.get,im.v1.message.create",
  ]);
  const call = async (name: string, args: Record<string, unknown>) =>
    await mcp.client.callTool({ name, arguments: args }) as CallJson;
  try {
    const { tools } = await mcp.client.listTools() as { tools: ToolJson[] };

    await t.step("the methods are tools beside the shortcuts, with truthful hints", () => {
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      assert.ok(byName.has("calendar_agenda"), "the shortcut tools stay");
      const view = byName.get("calendar_v4_calendarEvent_instanceView");
      assert.equal(view?.annotations?.readOnlyHint, true);
      assert.deepEqual(view?.inputSchema.required, ["path", "params"]);
      const send = byName.get("im_v1_message_create");
      assert.deepEqual(send?.annotations, {
        title: "POST /open-apis/im/v1/messages",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true, // uuid, which hark derives when none is given
        openWorldHint: true,
      });
      assert.equal(send?.inputSchema.properties?.as, undefined, "the bot only: no as");
      assert.ok(byName.has("contact_v3_user_get"));
    });

    const start = Math.floor(Date.UTC(2026, 10, 2) / 1000);
    await t.step("the instance view lists the week's events", async () => {
      await env.clearRequests();
      const result = await call("calendar_v4_calendarEvent_instanceView", {
        path: { calendar_id: "primary" },
        params: { start_time: String(start), end_time: String(start + 7 * DAY) },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      const items = result.structuredContent?.items;
      assert.ok(Array.isArray(items) && items.length > 0, "the seed has events that week");
      const [request] = await env.requests();
      assert.equal(request.path, "/open-apis/calendar/v4/calendars/primary/events/instance_view");
    });

    await t.step("contact user get gets a user", async () => {
      const user = env.sb.users[1];
      const result = await call("contact_v3_user_get", {
        path: { user_id: user.open_id },
        params: { user_id_type: "open_id" },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      assert.deepEqual(
        result.structuredContent?.user && {
          open_id: Reflect.get(result.structuredContent.user, "open_id"),
          name: Reflect.get(result.structuredContent.user, "name"),
        },
        { open_id: user.open_id, name: user.name },
      );
    });

    const chat = env.sb.chats.find((c) => c.bot_member)?.chat_id;
    assert.ok(chat, "the seed has a chat with the bot");
    const message = {
      params: { receive_id_type: "chat_id" },
      data: { receive_id: chat, msg_type: "text", content: JSON.stringify({ text: "via mcp" }) },
    };

    await t.step("a dry run previews the send and sends nothing", async () => {
      await env.clearRequests();
      const result = await call("im_v1_message_create", { ...message, dry_run: true });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      const requests = result.structuredContent?.requests;
      assert.ok(Array.isArray(requests));
      assert.equal(
        Reflect.get(requests[0], "url"),
        `${env.sb.baseUrl}/open-apis/im/v1/messages?receive_id_type=chat_id`,
      );
      assert.match(JSON.stringify(Reflect.get(requests[0], "body")), /"uuid":"[0-9a-f-]{36}"/);
      assert.deepEqual(await env.requests(), []);
    });

    await t.step(
      "a send goes as the bot with a derived uuid; the same call repeats it",
      async () => {
        await env.clearRequests();
        const first = await call("im_v1_message_create", message);
        assert.equal(first.isError, undefined, JSON.stringify(first));
        assert.equal(first.structuredContent?.chat_id, chat);
        const again = await call("im_v1_message_create", message);
        assert.equal(again.structuredContent?.message_id, first.structuredContent?.message_id);
        const sends = (await env.requests()).filter((r) => r.path === "/open-apis/im/v1/messages");
        assert.equal(sends.length, 2);
        assert.match(sends[0].headers.authorization, /^Bearer t-/);
        assert.equal(
          Reflect.get(Object(sends[0].body), "uuid"),
          Reflect.get(Object(sends[1].body), "uuid"),
        );
      },
    );

    await t.step(
      "a bad argument is a tool error with the envelope, and nothing is sent",
      async () => {
        await env.clearRequests();
        const result = await call("im_v1_message_create", {
          ...message,
          data: { ...message.data, content: 5 },
        });
        assert.equal(result.isError, true);
        const error = result.structuredContent?.error;
        assert.equal(Reflect.get(Object(error), "type"), "validation");
        assert.match(
          String(Reflect.get(Object(error), "message")),
          /^Invalid value 5 for argument "data\.content": expected text$/,
        );
        assert.deepEqual(await env.requests(), []);
      },
    );
  } finally {
    await mcp.close();
    await env.close();
  }
});
