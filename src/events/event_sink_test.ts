import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { compactEvent, readEvent } from "./event_record.ts";
import { createSink, fileNameOf, parseRoute } from "./event_sink.ts";

const RAW = {
  schema: "2.0",
  header: {
    event_id: "ev/../1",
    event_type: "im.message.receive_v1",
    create_time: "1700000000000",
    tenant_key: "t",
    app_id: "cli_a",
    token: "verification-token",
  },
  event: {
    sender: { sender_id: { open_id: "ou_1" }, sender_type: "user" },
    message: {
      message_id: "om_1",
      chat_id: "oc_1",
      chat_type: "group",
      message_type: "text",
      content: JSON.stringify({ text: "@_user_1 deploy?" }),
      mentions: [{ key: "@_user_1", id: { open_id: "ou_bot" }, name: "Bot" }],
    },
  },
};

Deno.test("readEvent() keeps type, id, time, tenant and app, and drops the verification token", () => {
  const record = readEvent(RAW)!;
  assert.equal(record.type, "im.message.receive_v1");
  assert.equal(record.create_time, "2023-11-14T22:13:20.000Z");
  assert.equal(record.app_id, "cli_a");
  assert.doesNotMatch(JSON.stringify(record), /verification-token/);
  assert.equal(readEvent({ header: { event_type: "x" } }), undefined);
});

Deno.test("compactEvent() extracts a message's text with mentions as names", () => {
  const compact = compactEvent(readEvent(RAW)!);
  assert.equal(compact.text, "@Bot deploy?");
  assert.equal(compact.sender_id, "ou_1");
  assert.equal(compact.chat_id, "oc_1");
});

Deno.test("parseRoute() reads <regex>=dir:<path> and names --route when it cannot", () => {
  const route = parseRoute("^im\\.=dir:./im");
  assert.equal(route.dir, "./im");
  assert.ok(route.pattern.test("im.message.receive_v1"));
  for (const bad of ["^im", "=dir:./x", "([=dir:./x"]) {
    assert.throws(
      () => parseRoute(bad),
      (e: unknown) => e instanceof ValidationError && e.param === "--route",
    );
  }
});

Deno.test("fileNameOf() keeps network ids out of paths", () => {
  const name = fileNameOf(readEvent(RAW)!);
  assert.equal(name, "1700000000000_im.message.receive_v1_ev_.._1.json");
  assert.ok(!name.includes("/"));
});

Deno.test("createSink() routes by type to folders, atomically, and the rest to stdout", async () => {
  const ctx = createTestContext();
  const writes: string[] = [];
  ctx.fs.writeFileAtomic = (path) => {
    writes.push(path);
    return Promise.resolve();
  };
  ctx.fs.mkdir = () => Promise.resolve();
  const write = createSink(ctx, { routes: [parseRoute("^im\\.=dir:/ev/im")], compact: false });
  await write(readEvent(RAW)!);
  await write(readEvent({ ...RAW, header: { ...RAW.header, event_type: "calendar.x" } })!);
  assert.deepEqual(writes, ["/ev/im/1700000000000_im.message.receive_v1_ev_.._1.json"]);
  assert.equal(JSON.parse(ctx.stdout.text()).type, "calendar.x");
});
