import assert from "node:assert/strict";
import { CancelledError, ValidationError } from "../../errors/mod.ts";
import { FakeClient, inputOf, NO_CALLS } from "../../../tests/support/fake_client.ts";
import { chatUpdate, updateChatRequest } from "./chat_update.ts";

const flagOf = (param: string) => (e: unknown) => e instanceof ValidationError && e.param === param;

Deno.test("+chat-update sends only the fields given, trimmed, as a PUT of the chat", () => {
  const [request] = chatUpdate.requests(inputOf({
    "chat-id": " oc_1 ",
    name: " Release ",
    description: "",
    "edit-permission": "only_owner",
  }));
  assert.equal(request.method, "PUT");
  assert.equal(request.path, "/open-apis/im/v1/chats/oc_1");
  assert.deepEqual(request.query, { user_id_type: "open_id" });
  assert.deepEqual(request.body, {
    name: "Release",
    description: "",
    edit_permission: "only_owner",
  });
  assert.deepEqual(request.scopes, ["im:chat:update"]);
  const owner = updateChatRequest(inputOf({ "chat-id": "oc_1", owner: "on_9" }));
  assert.deepEqual(owner.query, { user_id_type: "union_id" });
  assert.deepEqual(owner.body, { owner_id: "on_9" });
});

Deno.test("+chat-update refuses bad input naming the flag, and an update of nothing", () => {
  const cases: [Record<string, string>, string][] = [
    [{ "chat-id": "ou_1", name: "x" }, "--chat-id"],
    [{ "chat-id": "oc_1", name: " " }, "--name"],
    [{ "chat-id": "oc_1", name: "x".repeat(61) }, "--name"],
    [{ "chat-id": "oc_1", description: "x".repeat(101) }, "--description"],
    [{ "chat-id": "oc_1", description: "a\u001bb" }, "--description"],
    [{ "chat-id": "oc_1", owner: "ou 1" }, "--owner"],
    [{ "chat-id": "oc_1" }, "--name"],
  ];
  for (const [values, flag] of cases) {
    assert.throws(() => chatUpdate.validate!(inputOf(values)), flagOf(flag), flag);
  }
});

Deno.test("+chat-update asks before handing the chat over, and sends nothing on no", async () => {
  await assert.rejects(
    chatUpdate.run!(inputOf({ "chat-id": "oc_1", owner: "ou_2" }), NO_CALLS),
    CancelledError,
  );
  const client = new FakeClient(() => ({}));
  const done = await chatUpdate.run!(
    inputOf({ "chat-id": "oc_1", owner: "ou_2" }, { confirm: true }),
    client,
  );
  assert.deepEqual(done, { chat_id: "oc_1", owner_id: "ou_2" });
  const renamed = await chatUpdate.run!(inputOf({ "chat-id": "oc_1", name: "A" }), client);
  assert.deepEqual(renamed, { chat_id: "oc_1", name: "A" });
  assert.equal(client.requests.length, 2);
});
