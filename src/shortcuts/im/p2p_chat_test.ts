import assert from "node:assert/strict";
import { ApiError, ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { messages } from "./messages.ts";

const PAGING = { limit: 5, "page-all": false, "max-pages": 10, order: "desc" };
const flagOf = (param: string) => (e: unknown) => e instanceof ValidationError && e.param === param;

Deno.test("+messages --user-id finds the one-to-one chat, then lists it", async () => {
  const client = new FakeClient((request) => {
    if (request.path === "/open-apis/im/v1/chat_p2p/batch_query") {
      assert.deepEqual(request.query, { chatter_id_type: "union_id" });
      assert.deepEqual(request.body, { chatter_ids: ["on_1"] });
      return { p2p_chats: [{ chatter_id: "on_1", chat_id: "oc_p2p" }] };
    }
    assert.equal(request.query?.container_id, "oc_p2p");
    return { items: [], has_more: false };
  });
  const input = inputOf({ "user-id": "on_1", ...PAGING });
  assert.deepEqual(await collect(messages.stream!(input, client)), []);
  assert.equal(client.requests.length, 2);
  const preview = messages.requests(input);
  assert.deepEqual(preview.map((r) => r.path), [
    "/open-apis/im/v1/chat_p2p/batch_query",
    "/open-apis/im/v1/messages",
  ]);
});

Deno.test("+messages --user-id: no chat yet, a bad chat id, the bot, or both flags", async () => {
  for (const answer of [{ p2p_chats: [] }, { p2p_chats: [{ chat_id: "oc_1/../x" }] }, {}]) {
    await assert.rejects(
      collect(
        messages.stream!(inputOf({ "user-id": "ou_1", ...PAGING }), new FakeClient(() => answer)),
      ),
      (e: unknown) => e instanceof ApiError && /no one-to-one chat/.test(e.message),
    );
  }
  const cases: [Record<string, string>, string, "user" | "bot"][] = [
    [{ "user-id": "ou_1" }, "--as", "bot"],
    [{ "user-id": "ou 1" }, "--user-id", "user"],
    [{ "user-id": "ou_1", "chat-id": "oc_1" }, "--user-id", "user"],
    [{}, "--chat-id", "user"],
  ];
  for (const [values, flag, identity] of cases) {
    assert.throws(
      () => messages.validate!(inputOf({ ...values, ...PAGING }, { identity })),
      flagOf(flag),
      flag,
    );
  }
});
