import assert from "node:assert/strict";
import { CancelledError, ValidationError } from "../../errors/mod.ts";
import { FakeClient, inputOf, NO_CALLS } from "../../../tests/support/fake_client.ts";
import { forward, forwardRequest, recall } from "./message_actions.ts";
import { messageReadUsers, urgent, urgentRequest } from "./read_status.ts";

const flagOf = (param: string) => (e: unknown) => e instanceof ValidationError && e.param === param;

Deno.test("+forward sends the receiver and the idempotency key Lark reads from the query", () => {
  const request = forwardRequest(inputOf({
    "message-id": "om_1",
    "chat-id": undefined,
    "user-id": undefined,
    email: "ana@example.com",
    "idempotency-key": "k1",
  }));
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/open-apis/im/v1/messages/om_1/forward");
  assert.deepEqual(request.query, { receive_id_type: "email", uuid: "k1" });
  assert.deepEqual(request.body, { receive_id: "ana@example.com" });
  assert.equal(request.idempotencyKey, "k1");
  const cases: [Record<string, string>, string][] = [
    [{ "message-id": "om_1", "idempotency-key": "k" }, "--chat-id"],
    [
      { "message-id": "om_1", "chat-id": "oc_1", email: "a@b.c", "idempotency-key": "k" },
      "--email",
    ],
    [{ "message-id": "om_1", "chat-id": "ou_1", "idempotency-key": "k" }, "--chat-id"],
    [
      { "message-id": "om_1", "chat-id": "oc_1", "idempotency-key": "k".repeat(51) },
      "--idempotency-key",
    ],
  ];
  for (const [values, flag] of cases) {
    assert.throws(() => forward.validate!(inputOf(values)), flagOf(flag), flag);
  }
});

Deno.test("+forward warns when the answer holds no message", () => {
  const warnings: string[] = [];
  const row = forward.output!({}, inputOf({ "idempotency-key": "k9" }, { warnings }));
  assert.deepEqual(row, { message_id: "" });
  assert.match(warnings[0], /--idempotency-key k9/);
});

Deno.test("+recall asks first and sends nothing on no; --yes recalls", async () => {
  await assert.rejects(recall.run!(inputOf({ "message-id": "om_1" }), NO_CALLS), CancelledError);
  const client = new FakeClient(() => ({}));
  assert.deepEqual(await recall.run!(inputOf({ "message-id": "om_1", yes: true }), client), {
    message_id: "om_1",
    recalled: true,
  });
  assert.deepEqual(client.requests.map((r) => `${r.method} ${r.path}`), [
    "DELETE /open-apis/im/v1/messages/om_1",
  ]);
});

Deno.test("+urgent picks the endpoint of --kind and one id type; paid kinds ask first", async () => {
  const sms = urgentRequest(
    inputOf({ "message-id": "om_1", "user-ids": "on_1,on_2", kind: "sms", yes: undefined }),
  );
  assert.equal(sms.method, "PATCH");
  assert.equal(sms.path, "/open-apis/im/v1/messages/om_1/urgent_sms");
  assert.deepEqual(sms.query, { user_id_type: "union_id" });
  assert.deepEqual(sms.body, { user_id_list: ["on_1", "on_2"] });
  assert.deepEqual(sms.scopes, ["im:message.urgent:sms"]);
  for (
    const [values, flag] of [
      [{ "message-id": "om_1", "user-ids": "ou_1,on_1", kind: "app" }, "--user-ids"],
      [{ "message-id": "om_1", "user-ids": " , ", kind: "app" }, "--user-ids"],
      [{
        "message-id": "om_1",
        "user-ids": Array(51).fill(0).map((_, i) => `ou_${i}`).join(),
        kind: "app",
      }, "--user-ids"],
      [{ "message-id": "x", "user-ids": "ou_1", kind: "app" }, "--message-id"],
    ] as const
  ) {
    assert.throws(() => urgent.validate!(inputOf(values)), flagOf(flag), flag);
  }
  const phone = { "message-id": "om_1", "user-ids": "ou_1", kind: "phone" };
  await assert.rejects(urgent.run!(inputOf(phone), NO_CALLS), CancelledError);
  const client = new FakeClient(() => ({ invalid_user_id_list: ["ou_2"] }));
  const app = inputOf({ "message-id": "om_1", "user-ids": "ou_1,ou_2", kind: "app" });
  const warnings: string[] = [];
  const answer = await urgent.run!(app, client);
  const rows = urgent.output!(answer, { ...app, warn: (m: string) => void warnings.push(m) });
  assert.deepEqual(rows, [
    { user_id: "ou_1", kind: "app", status: "notified" },
    { user_id: "ou_2", kind: "app", status: "refused" },
  ]);
  assert.equal(warnings.length, 1);
});

Deno.test("+message-read-users is the app's only, with Lark's page size cap", () => {
  assert.deepEqual(messageReadUsers.identities, ["bot"]);
  const [request] = messageReadUsers.requests(inputOf({
    "message-id": "om_1",
    limit: 500,
    "page-all": false,
    "max-pages": 10,
  }));
  assert.deepEqual(request.query, {
    user_id_type: "open_id",
    page_size: 100,
    page_token: undefined,
  });
});
