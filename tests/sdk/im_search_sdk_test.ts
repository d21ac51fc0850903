/**
 * Message search against the sandbox through the official SDK's generic `client.request` (the
 * SDK has no method for it; lark-cli `shortcuts/im/im_messages_search.go` calls
 * `POST /open-apis/im/v1/messages/search` with `page_size`/`page_token` in the query and
 * `{query, filter}` in the body, and reads `items[].meta_data.message_id`, `has_more`,
 * `page_token`). A user token only: the tenant token is refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertShape, envelope, sdkError, t, withSdkSandbox } from "./_harness.ts";

const SEARCH_PAGE = t.object({
  items: t.array(t.object({ meta_data: t.object({ message_id: t.string }) })),
  has_more: t.boolean,
  page_token: t.optional(t.string),
});

Deno.test("SDK request: message search (not in the SDK)", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const user = asUser(await signIn(["search:message"]));
    const chatId = sandbox.chats[0].chat_id;
    const page = await client.request({
      method: "POST",
      url: "/open-apis/im/v1/messages/search",
      params: { page_size: 3 },
      data: { query: "", filter: { chat_ids: [chatId], chat_type: "group" } },
    }, user);
    assertShape(page, envelope(SEARCH_PAGE), "messages search");
    assert.equal(page.data.items.length, 3);
    assert.equal(page.data.has_more, true);
    const next = await client.request({
      method: "POST",
      url: "/open-apis/im/v1/messages/search",
      params: { page_size: 3, page_token: page.data.page_token },
      data: { query: "", filter: { chat_ids: [chatId], chat_type: "group" } },
    }, user);
    const ids = (p: { data: { items: { meta_data: { message_id: string } }[] } }) =>
      p.data.items.map((i) => i.meta_data.message_id);
    assert.equal(ids(next).filter((id: string) => ids(page).includes(id)).length, 0);
    const big = await sdkError(client.request({
      method: "POST",
      url: "/open-apis/im/v1/messages/search",
      params: { page_size: 51 },
      data: { query: "x" },
    }, user));
    assert.equal(big.body.code, 99992402);
    const bot = await sdkError(client.request({
      method: "POST",
      url: "/open-apis/im/v1/messages/search",
      data: { query: "x" },
    }));
    assert.equal(bot.body.code, 99991668, "a tenant token cannot search messages");
  });
});
