/**
 * The outside judge of the event long connection: the official Node SDK's `WSClient` asks the
 * sandbox's endpoint for a connection URL, connects, pings, receives events (whole and split
 * into parts) and answers them; the sandbox counts the answers. hark's subscriber is held to
 * the same sandbox in `tests/events/`.
 *
 * @module
 */

import assert from "node:assert/strict";
import * as lark from "@larksuiteoapi/node-sdk";
import { type Sandbox, startSandbox } from "../../sandbox/mod.ts";

/** The SDK's WSClient accepts only app ids shaped like Lark's. */
export const SDK_APP_ID = "cli_0123456789abcdef";

async function post(sandbox: Sandbox, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(sandbox.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return await response.json();
}

async function stats(sandbox: Sandbox): Promise<{ acked: number; accepted: number }> {
  return await (await fetch(`${sandbox.baseUrl}/sandbox/event_stream`)).json();
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

Deno.test(
  "SDK: the WSClient receives and answers the sandbox's events, whole and in parts",
  // The SDK's client leaves a timer of its own behind after close().
  { sanitizeOps: false, sanitizeResources: false },
  async () => {
    const sandbox = await startSandbox({
      appId: SDK_APP_ID,
      eventClientConfig: {
        PingInterval: 1,
        ReconnectCount: 3,
        ReconnectInterval: 1,
        ReconnectNonce: 0,
      },
    });
    const received: { type: string; id: string; text?: string }[] = [];
    const dispatcher = new lark.EventDispatcher({}).register({
      "im.message.receive_v1": (data) => {
        received.push({
          type: "im.message.receive_v1",
          id: data.event_id ?? "",
          text: data.message.content,
        });
      },
      "calendar.calendar.event.changed_v4": (data) => {
        received.push({ type: "calendar.calendar.event.changed_v4", id: data.event_id ?? "" });
      },
    });
    const client = new lark.WSClient({
      appId: SDK_APP_ID,
      appSecret: sandbox.appSecret,
      domain: sandbox.baseUrl,
      loggerLevel: lark.LoggerLevel.error,
    });
    try {
      await client.start({ eventDispatcher: dispatcher });
      await until(async () => (await stats(sandbox)).accepted === 1, "the SDK to connect");
      const content = JSON.stringify({ text: "hello from the sandbox" });
      await post(sandbox, "/sandbox/events", {
        event_type: "im.message.receive_v1",
        event: {
          sender: { sender_id: { open_id: sandbox.users[1].open_id }, sender_type: "user" },
          message: {
            message_id: "om_1",
            create_time: "1700000000000",
            chat_id: sandbox.chats[0].chat_id,
            chat_type: "group",
            message_type: "text",
            content,
          },
        },
      });
      await post(sandbox, "/sandbox/event_stream/faults", { kind: "split", parts: 4 });
      await post(sandbox, "/sandbox/events", {
        event_type: "calendar.calendar.event.changed_v4",
        event: { calendar_id: "feishu.cn_x@group.calendar.feishu.cn", change_type: "create" },
      });
      await until(async () => (await stats(sandbox)).acked === 2, "both answers");
      assert.deepEqual(received.map((r) => r.type), [
        "im.message.receive_v1",
        "calendar.calendar.event.changed_v4",
      ]);
      assert.equal(received[0].text, content);
    } finally {
      client.close({ force: true });
      await sandbox.close();
    }
  },
);
