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

const P2P = t.object({
  p2p_chats: t.array(t.object({ chatter_id: t.string, chat_id: t.string })),
});

Deno.test("SDK request: the one-to-one chat lookup (not in the SDK)", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const user = asUser(
      await signIn(["im:message.p2p_msg:get_as_user", "im:message", "im:message.send_as_user"]),
    );
    const other = sandbox.users[1];
    const lookup = () =>
      client.request({
        method: "POST",
        url: "/open-apis/im/v1/chat_p2p/batch_query",
        params: { chatter_id_type: "union_id" },
        data: { chatter_ids: [other.union_id] },
      }, user);
    assertShape(await lookup(), envelope(P2P), "chat_p2p batch_query");
    const sent = await client.im.v1.message.create({
      params: { receive_id_type: "open_id" },
      data: {
        receive_id: other.open_id,
        msg_type: "text",
        content: JSON.stringify({ text: "hi" }),
      },
    }, user);
    const found = await lookup();
    assert.deepEqual(found.data.p2p_chats, [{
      chatter_id: other.union_id,
      chat_id: sent.data?.chat_id,
    }]);
    const bot = await sdkError(client.request({
      method: "POST",
      url: "/open-apis/im/v1/chat_p2p/batch_query",
      data: { chatter_ids: [other.open_id] },
    }));
    assert.equal(bot.body.code, 99991668, "a tenant token cannot look it up");
  });
});

const CHAT_META = t.object({
  chat_id: t.string,
  avatar: t.string,
  name: t.string,
  description: t.string,
  owner_id: t.optional(t.string),
  owner_id_type: t.optional(t.string),
  external: t.boolean,
  tenant_key: t.string,
  chat_status: t.string,
});
const CHAT_SEARCH_PAGE = t.object({
  items: t.array(t.object({ meta_data: CHAT_META })),
  total: t.number,
  has_more: t.boolean,
  page_token: t.optional(t.string),
});

Deno.test("SDK request: chat search v2 with filters (not in the SDK)", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const user = asUser(await signIn(["im:chat:read"]));
    const chat = sandbox.chats[0];
    const member = chat.member_open_ids[1];
    const search = (data: Record<string, unknown>, params: Record<string, unknown> = {}) =>
      client.request({ method: "POST", url: "/open-apis/im/v2/chats/search", params, data }, user);
    const page = await search(
      { filter: { member_ids: [member], search_types: ["private", "public_joined"] } },
      { page_size: 2 },
    );
    assertShape(page, envelope(CHAT_SEARCH_PAGE), "chats search v2");
    const all = await search({ filter: { member_ids: [member] }, sorter: "member_count_desc" });
    const ids = all.data.items.map((i: { meta_data: { chat_id: string } }) => i.meta_data.chat_id);
    assert.ok(ids.includes(chat.chat_id));
    assert.equal(all.data.total, ids.length);
    const bad = await sdkError(search({ query: "x", filter: { search_types: ["group"] } }));
    assert.equal(bad.body.code, 99992402);
    const bot = await client.request({
      method: "POST",
      url: "/open-apis/im/v2/chats/search",
      data: { query: chat.name },
    });
    assertShape(bot, envelope(CHAT_SEARCH_PAGE), "chats search v2 as the app");
  });
});
