/**
 * The official SDK against the sandbox's chat administration: chat update, and chat members
 * get, create and delete. Every call is built by the SDK (types/index.d.ts, `im.v1.chat.update`,
 * `im.v1.chatMembers.*`), and every answer must have the fields and JS types of its response
 * type, nothing more.
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertShape, envelope, sdkError, t, withSdkSandbox } from "./_harness.ts";

const EMPTY = t.object({});
const MEMBER_PAGE = t.object({
  items: t.optional(t.array(t.object({
    member_id_type: t.optional(t.string),
    member_id: t.optional(t.string),
    name: t.optional(t.string),
    tenant_key: t.optional(t.string),
  }))),
  page_token: t.optional(t.string),
  has_more: t.optional(t.boolean),
  member_total: t.optional(t.number),
});
const ADDED = t.object({
  invalid_id_list: t.optional(t.array(t.string)),
  not_existed_id_list: t.optional(t.array(t.string)),
  pending_approval_id_list: t.optional(t.array(t.string)),
});
const REMOVED = t.object({ invalid_id_list: t.optional(t.array(t.string)) });

const SCOPES = [
  "im:chat:create_by_user",
  "im:chat:read",
  "im:chat:update",
  "im:chat.members:read",
];

Deno.test("SDK: chat update, and chat members get, create and delete", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const writer = asUser(await signIn([...SCOPES, "im:chat.members:write_only"]));
    const reader = asUser(await signIn(SCOPES));
    const [, second, third, fourth] = sandbox.users;
    const created = await client.im.v1.chat.create({
      params: { user_id_type: "open_id" },
      data: { name: "SDK admin", user_id_list: [second.open_id] },
    }, writer);
    const chat_id = created.data!.chat_id!;

    const updated = await client.im.v1.chat.update({
      path: { chat_id },
      params: { user_id_type: "open_id" },
      data: { name: "SDK admin 2", description: "renamed", edit_permission: "only_owner" },
    }, reader);
    assertShape(updated, envelope(EMPTY), "chat.update");
    const detail = await client.im.v1.chat.get({ path: { chat_id } }, reader);
    assert.equal(detail.data?.name, "SDK admin 2");
    assert.equal(detail.data?.edit_permission, "only_owner");
    const badOption = await sdkError(client.im.v1.chat.update({
      path: { chat_id },
      data: { edit_permission: "nobody" },
    }, reader));
    assert.equal(badOption.body.code, 99992402);

    const added = await client.im.v1.chatMembers.create({
      path: { chat_id },
      params: { member_id_type: "union_id", succeed_type: 0 },
      data: { id_list: [third.union_id, fourth.union_id] },
    }, writer);
    assertShape(added, envelope(ADDED), "chatMembers.create");
    const refused = await sdkError(client.im.v1.chatMembers.create({
      path: { chat_id },
      data: { id_list: ["ou_nobody"] },
    }, reader));
    assert.equal(refused.body.code, 99991679, "adding needs im:chat.members:write_only");

    const page = await client.im.v1.chatMembers.get({
      path: { chat_id },
      params: { member_id_type: "open_id", page_size: 2 },
    }, reader);
    assertShape(page, envelope(MEMBER_PAGE), "chatMembers.get");
    assert.equal(page.data?.member_total, 4);
    assert.equal(page.data?.has_more, true);
    let ids: string[] = [];
    for await (
      const chunk of await client.im.v1.chatMembers.getWithIterator({
        path: { chat_id },
        params: { page_size: 3 },
      }, reader)
    ) {
      ids = [...ids, ...(chunk?.items ?? []).map((m) => m.member_id!)];
    }
    assert.deepEqual(
      ids.sort(),
      [sandbox.users[0], second, third, fourth].map((u) => u.open_id).sort(),
    );

    const removed = await client.im.v1.chatMembers.delete({
      path: { chat_id },
      params: { member_id_type: "open_id" },
      data: { id_list: [third.open_id, "ou_stranger"] },
    }, writer);
    assertShape(removed, envelope(REMOVED), "chatMembers.delete");
    assert.deepEqual(removed.data?.invalid_id_list, ["ou_stranger"]);
    const owner = await sdkError(client.im.v1.chatMembers.delete({
      path: { chat_id },
      data: { id_list: [sandbox.users[0].open_id] },
    }, writer));
    assert.equal(owner.body.code, 232001, "the owner cannot be removed");
  });
});
