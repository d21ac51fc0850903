import assert from "node:assert/strict";
import { ApiError, ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { thread, threadTarget } from "./thread.ts";

const reply = (id: string) => ({
  message_id: id,
  thread_id: "omt_1",
  msg_type: "text",
  create_time: "1700000000000",
  chat_id: "oc_1",
  body: { content: '{"text":"hi"}' },
});

Deno.test("+thread needs exactly one of --message-id and --thread-id", () => {
  const param = (p: string) => (e: unknown) => e instanceof ValidationError && e.param === p;
  assert.throws(() => threadTarget(inputOf({})), param("--message-id"));
  assert.throws(
    () => threadTarget(inputOf({ "message-id": "om_1", "thread-id": "omt_1" })),
    param("--thread-id"),
  );
  assert.throws(() => threadTarget(inputOf({ "thread-id": "om_1" })), param("--thread-id"));
  assert.deepEqual(threadTarget(inputOf({ "thread-id": "omt_1" })), {
    messageId: undefined,
    threadId: "omt_1",
  });
});

Deno.test("+thread --message-id finds the message's thread, then lists it oldest first", async () => {
  const client = new FakeClient((r) =>
    r.path === "/open-apis/im/v1/messages/om_root"
      ? { items: [reply("om_root")] }
      : { items: [reply("om_root"), reply("om_2")], has_more: false }
  );
  const rows = await collect(
    thread.stream!(inputOf({ "message-id": "om_root", limit: 50, order: "asc" }), client),
  );
  assert.deepEqual(rows.map((r) => r.message_id), ["om_root", "om_2"]);
  assert.equal(client.requests[1].query!.container_id_type, "thread");
  assert.equal(client.requests[1].query!.container_id, "omt_1");
  assert.equal(client.requests[1].query!.sort_type, "ByCreateTimeAsc");
  assert.equal(client.requests[1].query!.start_time, undefined);
});

Deno.test("+thread of a message in no thread says how to start one", async () => {
  const client = new FakeClient(() => ({ items: [{ ...reply("om_x"), thread_id: undefined }] }));
  await assert.rejects(
    collect(thread.stream!(inputOf({ "message-id": "om_x", limit: 5 }), client)),
    (e: unknown) =>
      e instanceof ApiError && /not in a thread/.test(e.message) &&
      e.recovery.suggestion.includes("im +reply --message-id om_x --in-thread") &&
      e.recovery.command === "",
  );
});

Deno.test("+thread previews the lookup and the listing, or the listing alone", () => {
  assert.deepEqual(
    thread.requests(inputOf({ "message-id": "om_1", limit: 5 })).map((r) => r.path),
    ["/open-apis/im/v1/messages/om_1", "/open-apis/im/v1/messages"],
  );
  const [only] = thread.requests(inputOf({ "thread-id": "omt_9", limit: 5, order: "desc" }));
  assert.equal(only.query!.container_id, "omt_9");
  assert.equal(only.query!.sort_type, "ByCreateTimeDesc");
});
