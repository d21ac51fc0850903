import assert from "node:assert/strict";
import { CancelledError, ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf, NO_CALLS } from "../../../tests/support/fake_client.ts";
import { chatMembers, chatMembersAdd, chatMembersRemove, memberRows } from "./chat_members.ts";

const flagOf = (param: string) => (e: unknown) => e instanceof ValidationError && e.param === param;

Deno.test("+chat-members lists page by page from --page-token and says how to go on", async () => {
  const client = new FakeClient((r) => ({
    items: [{ member_id: `ou_${r.query!.page_token}`, name: "A" }],
    has_more: true,
    page_token: `${r.query!.page_token}x`,
  }));
  const warnings: string[] = [];
  const input = inputOf({
    "chat-id": "oc_1",
    "page-token": "p1",
    limit: 2,
    "page-all": false,
    "max-pages": 1000,
  }, { warnings });
  const rows = await collect(chatMembers.stream!(input, client));
  assert.deepEqual(rows.map((r) => r.member_id), ["ou_p1", "ou_p1x"]);
  assert.equal(client.requests[0].path, "/open-apis/im/v1/chats/oc_1/members");
  assert.deepEqual(client.requests[0].query, {
    member_id_type: "open_id",
    page_size: 2,
    page_token: "p1",
  });
  assert.deepEqual(warnings, ["There is more: continue with --page-token p1xx"]);
});

Deno.test("+chat-members never echoes a page token that is not plain text", async () => {
  const client = new FakeClient(() => ({
    items: [{ member_id: "ou_1" }],
    has_more: true,
    page_token: "a\u001b[2Jb",
  }));
  const warnings: string[] = [];
  const input = inputOf({ "chat-id": "oc_1", limit: 1, "page-all": false, "max-pages": 9 }, {
    warnings,
  });
  await collect(chatMembers.stream!(input, client));
  assert.deepEqual(warnings, []);
  for (const token of ["", "a b", "x".repeat(1025), "a\u0007"]) {
    assert.throws(
      () =>
        chatMembers.validate!(inputOf({
          "chat-id": "oc_1",
          "page-token": token,
          limit: 1,
          "page-all": false,
          "max-pages": 1,
        })),
      flagOf("--page-token"),
    );
  }
});

Deno.test("+chat-members-add adds one id kind at a time, all or nothing", () => {
  const [request] = chatMembersAdd.requests(inputOf({ "chat-id": "oc_1", members: "on_1,on_2" }));
  assert.equal(request.method, "POST");
  assert.deepEqual(request.query, { member_id_type: "union_id", succeed_type: 0 });
  assert.deepEqual(request.body, { id_list: ["on_1", "on_2"] });
  assert.deepEqual(request.scopes, ["im:chat.members:write_only"]);
  for (const members of ["ou_1,on_2", "ou 1", ""]) {
    assert.throws(
      () => chatMembersAdd.validate!(inputOf({ "chat-id": "oc_1", members })),
      flagOf("--members"),
    );
  }
  assert.throws(
    () => chatMembersAdd.validate!(inputOf({ "chat-id": "x", members: "ou_1" })),
    flagOf("--chat-id"),
  );
});

Deno.test("+chat-members-add and -remove report each id with what Lark said of it", () => {
  const warnings: string[] = [];
  const input = inputOf({ "chat-id": "oc_1", members: "ou_1,ou_2,ou_3" }, { warnings });
  const rows = memberRows(
    { not_existed_id_list: ["ou_2"], pending_approval_id_list: ["ou_3"], invalid_id_list: [] },
    input,
    "added",
  );
  assert.deepEqual(rows.map((r) => r.status), ["added", "refused", "pending_approval"]);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /ou_2/);
});

Deno.test("+chat-members-remove asks first, and removes with --yes", async () => {
  const values = { "chat-id": "oc_1", members: "ou_1" };
  await assert.rejects(chatMembersRemove.run!(inputOf(values), NO_CALLS), CancelledError);
  const client = new FakeClient(() => ({ invalid_id_list: [] }));
  await chatMembersRemove.run!(inputOf({ ...values, yes: true }), client);
  assert.equal(client.requests[0].method, "DELETE");
  assert.deepEqual(client.requests[0].query, { member_id_type: "open_id" });
});
