import assert from "node:assert/strict";
import { imageType } from "./_im_resource_routes.ts";
import { createSeedData } from "../core/seed_data.ts";
import { crc32, createSeedResources, makePdf, makePng } from "./seed_files.ts";
import { decodeMessageId, SeededHistory } from "./seed_messages.ts";

const END = Date.parse("2026-03-02T00:00:00Z");

function history(count: number, seed = 1, chatIndex = 0) {
  const data = createSeedData(seed);
  const resources = createSeedResources(seed);
  return new SeededHistory({
    seed,
    chatIndex,
    chat: data.chats[chatIndex],
    users: new Map(data.users.map((u) => [u.open_id, u])),
    appId: "cli_test",
    tenantKey: "tenant",
    count,
    endMs: END,
    imageKeys: resources.filter((r) => r.kind === "image").map((r) => r.key),
    files: resources.filter((r) => r.kind === "file").map((r) => ({
      key: r.key,
      fileName: r.fileName!,
    })),
  });
}

Deno.test("SeededHistory is deterministic, strictly time-ordered and ends before its end time", () => {
  const a = history(500);
  const b = history(500);
  let previous = -Infinity;
  for (let i = 0; i < 500; i++) {
    assert.deepEqual(a.itemAt(i), b.itemAt(i));
    assert.ok(a.timeAt(i) > previous);
    previous = a.timeAt(i);
  }
  assert.ok(previous < END);
  assert.notDeepEqual(history(500, 2).itemAt(7), a.itemAt(7));
});

Deno.test("SeededHistory mixes message kinds, senders, replies, threads and recalls", () => {
  const h = history(2000);
  const types = new Set<string>();
  const senders = new Set<string>();
  let replies = 0;
  let threads = 0;
  let recalled = 0;
  let mentions = 0;
  let hostile = 0;
  for (let i = 0; i < h.count; i++) {
    const item = h.itemAt(i);
    types.add(item.msg_type);
    senders.add(item.sender.id);
    if (item.parent_id) {
      replies++;
      const parent = h.messageById(item.parent_id)!;
      assert.ok(Number(parent.create_time) < Number(item.create_time));
      assert.equal(parent.thread_id, undefined);
      assert.equal(item.root_id, parent.root_id ?? parent.message_id);
    }
    if (item.thread_id) {
      threads++;
      const thread = h.threadReplies(i);
      assert.ok(thread.length >= 1 && thread.length <= 5);
      for (const reply of thread) {
        assert.equal(reply.root_id, item.message_id);
        assert.equal(reply.parent_id, item.message_id);
        assert.equal(reply.thread_id, item.thread_id);
        assert.deepEqual(h.messageById(reply.message_id), reply);
      }
      assert.equal(h.decodeThread(item.thread_id), i);
    }
    if (item.deleted) {
      recalled++;
      assert.equal(item.body?.content, "This message was recalled");
    }
    if (item.mentions) mentions++;
    const text = item.deleted ? "" : JSON.parse(item.body!.content).text ?? "";
    // deno-lint-ignore no-control-regex
    if (/[\u0000-\u001f\u202e]/.test(text)) hostile++;
  }
  assert.deepEqual([...types].sort(), ["file", "image", "interactive", "post", "text"]);
  assert.ok(senders.size >= 3);
  assert.ok(senders.has("cli_test"), "the bot speaks in a chat it is a member of");
  for (const count of [replies, threads, recalled, mentions, hostile]) assert.ok(count > 0);
});

Deno.test("SeededHistory ids decode back to their message and reject foreign ids", () => {
  const h = history(300);
  for (const i of [0, 1, 150, 299]) {
    const id = h.idOf(i);
    assert.match(id, /^om_[0-9a-f]{32}$/);
    assert.deepEqual(h.decode(id), { index: i, reply: 0 });
    assert.deepEqual(decodeMessageId(1, id), { chatIndex: 0, index: i, reply: 0 });
  }
  assert.equal(h.decode(`om_${"0".repeat(32)}`), undefined);
  assert.equal(h.decode(h.idOf(5).replace(/.$/, (c) => c === "0" ? "1" : "0")), undefined);
  assert.equal(history(300, 1, 1).decode(h.idOf(5)), undefined, "another chat's id");
  assert.equal(h.messageById("om_nope"), undefined);
});

Deno.test("SeededHistory.lowerBound() finds time windows by binary search over 1,000,000 messages", () => {
  const h = history(1_000_000);
  for (const i of [0, 1, 77_777, 999_999]) {
    const t = h.timeAt(i);
    assert.equal(h.lowerBound(t), i);
    assert.equal(h.lowerBound(t + 1), i + 1);
  }
  assert.equal(h.lowerBound(0), 0);
  assert.equal(h.lowerBound(END + 1), 1_000_000);
});

Deno.test("makePng() writes a PNG with valid chunk CRCs that imageType() recognises", () => {
  const png = makePng(12, [0, 0, 0], [255, 255, 255]);
  assert.equal(imageType(png), "image/png");
  const view = new DataView(png.buffer);
  let offset = 8;
  const types: string[] = [];
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const typed = png.subarray(offset + 4, offset + 8 + length);
    types.push(new TextDecoder().decode(typed.subarray(0, 4)));
    assert.equal(view.getUint32(offset + 8 + length), crc32(typed));
    offset += 12 + length;
  }
  assert.deepEqual(types, ["IHDR", "IDAT", "IEND"]);
  assert.equal(view.getUint32(16), 12);
});

Deno.test("makePdf() writes a PDF whose startxref points at its xref table", () => {
  const text = new TextDecoder().decode(makePdf("T (1)", ["Hello", "World"]));
  assert.ok(text.startsWith("%PDF-1.4\n") && text.endsWith("%%EOF\n"));
  const xref = Number(/startxref\n(\d+)\n/.exec(text)![1]);
  assert.ok(text.startsWith("xref\n", xref));
  const offsets = [...text.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
  offsets.forEach((offset, i) => assert.ok(text.startsWith(`${i + 1} 0 obj`, offset)));
});

Deno.test("createSeedResources() gives the same small images and files for the same seed", () => {
  const a = createSeedResources(4);
  assert.deepEqual(a, createSeedResources(4));
  assert.notDeepEqual(a.map((r) => r.key), createSeedResources(5).map((r) => r.key));
  assert.deepEqual(a.map((r) => r.kind), ["image", "image", "image", "file", "file"]);
  for (const r of a) assert.ok(r.bytes.length > 0 && r.bytes.length < 4096);
  assert.ok(a.filter((r) => r.kind === "image").every((r) => /^img_v3_/.test(r.key)));
  assert.ok(a.filter((r) => r.kind === "file").every((r) => /^file_v3_/.test(r.key)));
});
