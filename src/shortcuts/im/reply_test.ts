import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import type { Posted } from "./outgoing.ts";
import { reply } from "./reply.ts";

Deno.test("+reply posts to the message's reply endpoint with the uuid and reply_in_thread", async () => {
  const client = new FakeClient(() => ({ message_id: "om_2", thread_id: "omt_1" }));
  const input = inputOf({
    "message-id": "om_1",
    markdown: "**on it**",
    "in-thread": true,
    "idempotency-key": "r-1",
  });
  await reply.validate!(input);
  // `run` of a registered shortcut answers `unknown`; +reply's is a Posted.
  const posted = await reply.run!(input, client) as Posted;
  assert.deepEqual(posted.item, { message_id: "om_2", thread_id: "omt_1" });
  assert.equal(posted.key, "r-1");
  const [request] = client.requests;
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/open-apis/im/v1/messages/om_1/reply");
  assert.equal(request.idempotencyKey, "r-1");
  assert.deepEqual(request.body, {
    msg_type: "post",
    content: JSON.stringify({
      zh_cn: { title: "", content: [[{ tag: "md", text: "**on it**" }]] },
    }),
    reply_in_thread: true,
    uuid: "r-1",
  });
  // Lark's reply doc: as a user, im:message.send_as_user and im:message both.
  assert.deepEqual(request.scopes, ["im:message.send_as_user", "im:message"]);
});

Deno.test("+reply as the bot, in the chat, with a fresh key each run", () => {
  const input = inputOf({ "message-id": "om_1", text: "ok", "in-thread": false }, {
    identity: "bot",
  });
  const [first] = reply.requests(input);
  const [second] = reply.requests(input);
  assert.deepEqual(first.scopes, ["im:message:send_as_bot"]);
  assert.equal((first.body as { reply_in_thread: boolean }).reply_in_thread, false);
  assert.notEqual(first.idempotencyKey, second.idempotencyKey);
});

Deno.test("+reply needs a message id and one body", async () => {
  const param = (p: string) => (e: unknown) => e instanceof ValidationError && e.param === p;
  await assert.rejects(
    async () => await reply.validate!(inputOf({ "message-id": "oc_1", text: "x" })),
    param("--message-id"),
  );
  await assert.rejects(
    async () => await reply.validate!(inputOf({ "message-id": "om_1" })),
    param("--text"),
  );
  await assert.rejects(
    async () => await reply.validate!(inputOf({ "message-id": "om_1", file: "/no/such/file" })),
    param("--file"),
  );
});
