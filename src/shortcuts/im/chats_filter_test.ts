import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { chats, chatsRequest } from "./chats.ts";

const PAGING = {
  limit: 20,
  "page-all": false,
  "max-pages": 10,
  query: undefined,
  "search-types": undefined,
  "member-ids": undefined,
  "is-manager": undefined,
  "disable-search-by-user": undefined,
  "sort-by": undefined,
  "page-token": undefined,
};
const flagOf = (param: string) => (e: unknown) => e instanceof ValidationError && e.param === param;

Deno.test("+chats with Lark's search filters posts the v2 search and reads meta_data", async () => {
  const input = inputOf({
    ...PAGING,
    query: "ops-team",
    "search-types": "private, public_joined",
    "member-ids": "ou_1,ou_2",
    "is-manager": true,
    "disable-search-by-user": true,
    "sort-by": "member_count_desc",
  });
  const request = chatsRequest(input);
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/open-apis/im/v2/chats/search");
  assert.deepEqual(request.query, {
    user_id_type: "open_id",
    page_size: 20,
    page_token: undefined,
  });
  assert.deepEqual(request.body, {
    query: '"ops-team"',
    filter: {
      search_types: ["private", "public_joined"],
      member_ids: ["ou_1", "ou_2"],
      is_manager: true,
      disable_search_by_user: true,
    },
    sorter: "member_count_desc",
  });
  const client = new FakeClient(() => ({
    items: [{ meta_data: { chat_id: "oc_1", name: "Ops" } }, { meta_data: "x" }, null],
    has_more: false,
  }));
  assert.deepEqual(await collect(chats.stream!(input, client)), [{ chat_id: "oc_1", name: "Ops" }]);
  // Without filters: the v1 list, as before.
  assert.equal(chatsRequest(inputOf({ ...PAGING })).path, "/open-apis/im/v1/chats");
});

Deno.test("+chats filters refuse bad input naming the flag", () => {
  const cases: [Record<string, string | boolean>, string][] = [
    [{ query: "a", "search-types": "group" }, "--search-types"],
    [{ query: "a", "search-types": " , " }, "--search-types"],
    [{ "member-ids": "on_1" }, "--member-ids"],
    [{ "member-ids": Array(51).fill(0).map((_, i) => `ou_${i}`).join() }, "--member-ids"],
    [{ "is-manager": true }, "--query"],
  ];
  for (const [values, flag] of cases) {
    assert.throws(() => chats.validate!(inputOf({ ...PAGING, ...values })), flagOf(flag), flag);
  }
});
