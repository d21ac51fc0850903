import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { parseTimeInput } from "../../time/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import type { ApiRequest } from "../../http/request.ts";
import { messageRow } from "./message_rows.ts";
import { messages, windowOf } from "./messages.ts";

const CHAT = "oc_chat";
const NOW = Date.UTC(2026, 10, 21, 9, 0, 0);
const time = (text: string, param = "--start") =>
  parseTimeInput(text, { param, now: NOW, timeZone: "Asia/Shanghai" });
const shanghai = createTestContext({ timeZone: "Asia/Shanghai" });

function item(i: number) {
  return {
    message_id: `om_${i}`,
    msg_type: "text",
    create_time: String(NOW - i * 60_000),
    update_time: String(NOW - i * 60_000),
    chat_id: CHAT,
    sender: {
      id: `ou_${i % 3}`,
      id_type: "open_id",
      sender_type: "user",
      sender_name: `U${i % 3}`,
    },
    body: { content: JSON.stringify({ text: `message ${i}` }) },
  };
}

/** A chat of `total` messages, served in pages of the asked size with offset tokens. */
function chat(total: number) {
  return new FakeClient((r: ApiRequest) => {
    const size = Number(r.query!.page_size);
    const offset = r.query!.page_token ? Number(r.query!.page_token) : 0;
    const more = offset + size < total;
    return {
      items: Array.from({ length: Math.min(size, total - offset) }, (_, i) => item(offset + i)),
      has_more: more,
      page_token: more ? String(offset + size) : undefined,
    };
  });
}

Deno.test("windowOf() reads --start and --end in the user's zone, a date --end to its last second", () => {
  const input = inputOf({
    "chat-id": CHAT,
    start: time("2026-11-01"),
    end: time("2026-11-02", "--end"),
  }, {
    ctx: shanghai,
  });
  assert.deepEqual(windowOf(input), {
    startTime: Date.UTC(2026, 9, 31, 16) / 1000,
    endTime: Date.UTC(2026, 10, 2, 16) / 1000 - 1,
  });
  const moments = inputOf({
    start: time("2026-11-01 09:30"),
    end: time("2026-11-01T10:00:00+08:00", "--end"),
  }, { ctx: shanghai });
  assert.deepEqual(windowOf(moments), {
    startTime: Date.UTC(2026, 10, 1, 1, 30) / 1000,
    endTime: Date.UTC(2026, 10, 1, 2) / 1000,
  });
  assert.deepEqual(windowOf(inputOf({})), { startTime: undefined, endTime: undefined });
  assert.throws(
    () => windowOf(inputOf({ start: time("2026-11-02"), end: time("2026-11-01", "--end") })),
    (e: unknown) => e instanceof ValidationError && e.param === "--end",
  );
});

Deno.test("+messages asks for the newest --limit messages with sender names, in one page", async () => {
  const client = chat(100);
  const rows = await collect(
    messages.stream!(inputOf({ "chat-id": CHAT, limit: 20, order: "desc" }), client),
  );
  assert.equal(rows.length, 20);
  assert.equal(client.requests.length, 1);
  assert.deepEqual(client.requests[0].query, {
    container_id_type: "chat",
    container_id: CHAT,
    start_time: undefined,
    end_time: undefined,
    sort_type: "ByCreateTimeDesc",
    page_size: 20,
    page_token: undefined,
    card_msg_content_type: "raw_card_content",
    with_sender_name: true,
  });
  assert.deepEqual(client.requests[0].scopes, [
    "im:message.group_msg:get_as_user",
    "im:message.p2p_msg:get_as_user",
  ]);
});

Deno.test("+messages --page-all reads pages of 50 to the end, a page at a time", async () => {
  const client = chat(120);
  const input = inputOf({ "chat-id": CHAT, limit: 20, "page-all": true, order: "asc" });
  const batches: number[] = [];
  for await (const batch of messages.stream!(input, client)) batches.push(batch.length);
  assert.deepEqual(batches, [50, 50, 20]);
  assert.deepEqual(client.requests.map((r) => r.query!.page_size), [50, 50, 50]);
  assert.equal(client.requests[0].query!.sort_type, "ByCreateTimeAsc");
});

Deno.test("+messages rows keep Lark's fields, times in RFC 3339, and add the readable text", async () => {
  const [row] = await collect(
    messages.stream!(inputOf({ "chat-id": CHAT, limit: 1 }, { ctx: shanghai }), chat(1)),
  );
  assert.deepEqual(row, {
    ...item(0),
    create_time: "2026-11-21T17:00:00+08:00",
    update_time: "2026-11-21T17:00:00+08:00",
    text: "message 0",
  });
  // A time that is not one is left out, with a warning, never passed on as sent.
  for (const bad of ["", "abc", "1e308", "1795435200000.5", "99999999999999999", 1e308]) {
    const warnings: string[] = [];
    const out = messageRow({ ...item(0), create_time: bad }, "UTC", (w) => warnings.push(w));
    assert.equal("create_time" in out, false, String(bad));
    assert.deepEqual(warnings, [
      `The service sent a create_time that is not a time (${
        JSON.stringify(bad)
      }): hark left it out`,
    ]);
  }
});

Deno.test("+messages validates the chat id and the paging flags; previews one request", async () => {
  const bad = async (values: Record<string, unknown>, param: string) =>
    await assert.rejects(
      async () => await messages.validate!(inputOf(values as never)),
      (e: unknown) => e instanceof ValidationError && e.param === param,
    );
  await bad({ "chat-id": "chat", limit: 20 }, "--chat-id");
  await bad({ "chat-id": "oc_1 2", limit: 20 }, "--chat-id");
  await bad({ "chat-id": CHAT, limit: 0 }, "--limit");
  await bad({ "chat-id": CHAT, limit: 5, "max-pages": 0 }, "--max-pages");
  const input = inputOf({ "chat-id": CHAT, limit: 200, order: "asc", start: time("2026-11-01") }, {
    ctx: shanghai,
  });
  const [request] = messages.requests(input);
  assert.equal(request.query!.page_size, 50);
  assert.equal(request.query!.start_time, String(Date.UTC(2026, 9, 31, 16) / 1000));
});
