import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { chats, queryOf } from "./chats.ts";

Deno.test("+chats lists the chats, or searches them with --query, page by page", async () => {
  const client = new FakeClient((r) => ({
    items: [{ chat_id: `oc_${r.query!.page_token ?? 0}`, name: "Eng" }],
    has_more: r.query!.page_token === undefined,
    page_token: r.query!.page_token === undefined ? "1" : undefined,
  }));
  const listed = await collect(chats.stream!(inputOf({ limit: 5, "page-all": true }), client));
  assert.deepEqual(listed.map((c) => c.chat_id), ["oc_0", "oc_1"]);
  assert.equal(client.requests[0].path, "/open-apis/im/v1/chats");
  assert.equal(client.requests[0].query!.page_size, 100);
  const [search] = chats.requests(inputOf({ query: " release ", limit: 5 }));
  assert.equal(search.path, "/open-apis/im/v1/chats/search");
  assert.deepEqual(search.query, {
    query: "release",
    user_id_type: "open_id",
    page_size: 5,
    page_token: undefined,
  });
  assert.deepEqual(search.scopes, ["im:chat:read"]);
});

Deno.test("+chats refuses a blank, over-long or control-laden query", () => {
  for (const query of ["", "  ", "x".repeat(65), "a\u001bb"]) {
    assert.throws(
      () => queryOf(inputOf({ query })),
      (e: unknown) => e instanceof ValidationError && e.param === "--query",
    );
  }
  assert.equal(queryOf(inputOf({})), undefined);
});
