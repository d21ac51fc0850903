import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { FakeClient, inputOf } from "../_fake_client.ts";
import { messageOf, receiverOf, send } from "./send.ts";

const invalid = (param: string) => (e: unknown) =>
  e instanceof ValidationError && e.param === param;

Deno.test("send needs exactly one receiver, naming the flags", () => {
  assert.throws(() => receiverOf(inputOf({ text: "hi" })), invalid("--chat-id"));
  assert.throws(
    () => receiverOf(inputOf({ "chat-id": "oc_1", email: "a@b.c" })),
    (e: unknown) => invalid("--email")(e) && /--chat-id, --email/.test((e as Error).message),
  );
  assert.deepEqual(receiverOf(inputOf({ "user-id": "ou_1" })), { type: "open_id", id: "ou_1" });
  assert.deepEqual(receiverOf(inputOf({ "user-id": "1a2b" })), { type: "user_id", id: "1a2b" });
  assert.deepEqual(receiverOf(inputOf({ email: "a@b.c" })), { type: "email", id: "a@b.c" });
});

Deno.test("send builds text, post and raw content", () => {
  assert.deepEqual(messageOf(inputOf({ text: "hi" })), {
    msgType: "text",
    content: '{"text":"hi"}',
  });
  const post = messageOf(inputOf({ markdown: "**b**" }));
  assert.equal(post.msgType, "post");
  assert.deepEqual(JSON.parse(post.content), {
    zh_cn: { title: "", content: [[{ tag: "md", text: "**b**" }]] },
  });
  assert.deepEqual(messageOf(inputOf({ content: '{ "a": 1 }', "msg-type": "interactive" })), {
    msgType: "interactive",
    content: '{"a":1}',
  });
});

Deno.test("send rejects no body, two bodies, bad content and a stray --msg-type", () => {
  assert.throws(() => messageOf(inputOf({})), invalid("--text"));
  assert.throws(() => messageOf(inputOf({ text: "a", markdown: "b" })), invalid("--markdown"));
  assert.throws(() => messageOf(inputOf({ content: "{}" })), invalid("--msg-type"));
  assert.throws(() => messageOf(inputOf({ text: "a", "msg-type": "text" })), invalid("--msg-type"));
  assert.throws(
    () => messageOf(inputOf({ content: "nope", "msg-type": "text" })),
    invalid("--content"),
  );
  assert.throws(
    () => messageOf(inputOf({ content: "[1]", "msg-type": "text" })),
    invalid("--content"),
  );
  assert.throws(
    () =>
      send.validate!(inputOf({ "chat-id": "oc_1", text: "a", "idempotency-key": "k".repeat(51) })),
    invalid("--idempotency-key"),
  );
});

Deno.test("send passes the idempotency key as uuid and to the client", async () => {
  const client = new FakeClient(() => ({ message_id: "om_1" }));
  const result = await send.run!(
    inputOf({ "chat-id": "oc_1", text: "hi", "idempotency-key": "key-1" }),
    client,
  );
  assert.deepEqual(result, { message_id: "om_1" });
  const [request] = client.requests;
  assert.equal(request.idempotencyKey, "key-1");
  assert.deepEqual(request.query, { receive_id_type: "chat_id" });
  assert.deepEqual(request.body, {
    receive_id: "oc_1",
    msg_type: "text",
    content: '{"text":"hi"}',
    uuid: "key-1",
  });
});

Deno.test("send generates a key when none is given", async () => {
  const client = new FakeClient(() => ({}));
  await send.run!(inputOf({ email: "a@b.c", text: "hi" }), client);
  assert.match(client.requests[0].idempotencyKey!, /^[0-9a-f-]{36}$/);
  assert.equal(
    (client.requests[0].body as { uuid: string }).uuid,
    client.requests[0].idempotencyKey,
  );
});
