import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { get, idBatches } from "./get.ts";

Deno.test("+get fetches messages with mget, 50 ids a request, in the order given", async () => {
  const ids = Array.from({ length: 120 }, (_, i) => `om_${i}`);
  const client = new FakeClient((r) => ({
    items: (r.query!.message_ids as string[]).map((id) => ({
      message_id: id,
      msg_type: "text",
      create_time: "1700000000000",
      chat_id: "oc_1",
      sender: { id: "ou_1", id_type: "open_id", sender_type: "user", sender_name: "Ana" },
      body: { content: '{"text":"hi"}' },
    })),
  }));
  const rows = await collect(get.stream!(inputOf({ "message-id": ids.join(",") }), client));
  assert.deepEqual(rows.map((r) => r.message_id), ids);
  assert.deepEqual(client.requests.map((r) => (r.query!.message_ids as string[]).length), [
    50,
    50,
    20,
  ]);
  assert.equal(client.requests[0].path, "/open-apis/im/v1/messages/mget");
  assert.equal(client.requests[0].query!.with_sender_name, undefined);
  assert.equal(rows[0].text, "hi");
});

Deno.test("+get refuses a bad id, an empty list and more than 500 ids", () => {
  const param = (e: unknown) => e instanceof ValidationError && e.param === "--message-id";
  for (const value of ["", ",", "om_1,x", "om_1, om 2"]) {
    assert.throws(() => idBatches(inputOf({ "message-id": value })), param);
  }
  const many = Array.from({ length: 501 }, (_, i) => `om_${i}`).join(",");
  assert.throws(() => idBatches(inputOf({ "message-id": many })), param);
  assert.equal(get.requests(inputOf({ "message-id": "om_1,om_1,om_2" })).length, 1);
});
