/**
 * The official SDK against the sandbox's message operations: reactions (`im.v1.messageReaction`
 * create, list, delete), pins (`im.v1.pin` create, list, delete), and `im.v1.message` forward,
 * readUsers, urgentApp, urgentSms, urgentPhone and delete. Every call is built by the SDK, and
 * every answer must have the fields and JS types of its response type, nothing more.
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertShape, envelope, sdkError, t, withSdkSandbox } from "./_harness.ts";
import { MESSAGE } from "./_im_shapes.ts";

const OPERATOR = t.object({ operator_id: t.string, operator_type: t.enum("app", "user") });
const REACTION = t.object({
  reaction_id: t.optional(t.string),
  operator: t.optional(OPERATOR),
  action_time: t.optional(t.string),
  reaction_type: t.optional(t.object({ emoji_type: t.string })),
});
const REACTION_PAGE = t.object({
  items: t.array(REACTION),
  has_more: t.boolean,
  page_token: t.string,
});
const PIN = t.object({
  message_id: t.string,
  chat_id: t.optional(t.string),
  operator_id: t.optional(t.string),
  operator_id_type: t.optional(t.string),
  create_time: t.optional(t.string),
});
const PIN_PAGE = t.object({
  items: t.optional(t.array(PIN)),
  has_more: t.optional(t.boolean),
  page_token: t.optional(t.string),
});
const READERS = t.object({
  items: t.optional(t.array(t.object({
    user_id_type: t.string,
    user_id: t.string,
    timestamp: t.string,
    tenant_key: t.optional(t.string),
  }))),
  has_more: t.boolean,
  page_token: t.optional(t.string),
});
const URGENT = t.object({ invalid_user_id_list: t.array(t.string) });
const EMPTY = t.object({});

const SCOPES = [
  "im:message.reactions:write_only",
  "im:message.reactions:read",
  "im:message.pins:write_only",
  "im:message.pins:read",
];

Deno.test("SDK: reactions, pins, forward, read users, urgent and recall", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const user = asUser(await signIn(SCOPES));
    const chat_id = sandbox.chats[0].chat_id;
    const [me] = sandbox.users;
    const other = sandbox.users.find((u) =>
      u.open_id !== me.open_id && sandbox.chats[0].member_open_ids.includes(u.open_id)
    )!;
    // The bot's message (the tenant token is the SDK's default).
    const sent = await client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: chat_id, msg_type: "text", content: JSON.stringify({ text: "hi" }) },
    });
    const message_id = sent.data!.message_id!;

    const added = await client.im.v1.messageReaction.create({
      path: { message_id },
      data: { reaction_type: { emoji_type: "THUMBSUP" } },
    }, user);
    assertShape(added, envelope(REACTION), "messageReaction.create");
    assert.equal(added.data?.operator?.operator_id, me.open_id);
    const page = await client.im.v1.messageReaction.list({
      path: { message_id },
      params: { reaction_type: "THUMBSUP", page_size: 10, user_id_type: "union_id" },
    }, user);
    assertShape(page, envelope(REACTION_PAGE), "messageReaction.list");
    assert.equal(page.data?.items[0].operator?.operator_id, me.union_id);
    const bad = await sdkError(client.im.v1.messageReaction.create({
      path: { message_id },
      data: { reaction_type: { emoji_type: "NOT_AN_EMOJI" } },
    }, user));
    assert.equal(bad.body.code, 231001);
    const notMine = await sdkError(client.im.v1.messageReaction.delete({
      path: { message_id, reaction_id: added.data!.reaction_id! },
    }));
    assert.equal(notMine.body.code, 231003, "only the one who reacted takes it back");
    const removed = await client.im.v1.messageReaction.delete({
      path: { message_id, reaction_id: added.data!.reaction_id! },
    }, user);
    assertShape(removed, envelope(REACTION), "messageReaction.delete");

    const pinned = await client.im.v1.pin.create({ data: { message_id } }, user);
    assertShape(pinned, envelope(t.object({ pin: t.optional(PIN) })), "pin.create");
    const pins = await client.im.v1.pin.list({ params: { chat_id, page_size: 5 } });
    assertShape(pins, envelope(PIN_PAGE), "pin.list");
    assert.deepEqual(pins.data?.items?.map((p) => p.message_id), [message_id]);
    assertShape(
      await client.im.v1.pin.delete({ path: { message_id } }, user),
      envelope(EMPTY),
      "pin.delete",
    );

    const forwarded = await client.im.v1.message.forward({
      path: { message_id },
      params: { receive_id_type: "open_id", uuid: "sdk-forward-1" },
      data: { receive_id: other.open_id },
    });
    assertShape(forwarded, envelope(MESSAGE), "message.forward");
    const userForward = await sdkError(client.im.v1.message.forward({
      path: { message_id },
      params: { receive_id_type: "chat_id" },
      data: { receive_id: chat_id },
    }, asUser(await signIn(["im:message", "im:message.send_as_user"]))));
    assert.equal(userForward.body.code, 99991679, "forward takes the tenant token alone");

    await client.im.v1.messageReaction.create({
      path: { message_id },
      data: { reaction_type: { emoji_type: "DONE" } },
    }, user);
    const readers = await client.im.v1.message.readUsers({
      path: { message_id },
      params: { user_id_type: "open_id", page_size: 10 },
    });
    assertShape(readers, envelope(READERS), "message.readUsers");
    assert.deepEqual(readers.data?.items?.map((r) => r.user_id), [me.open_id]);

    for (const kind of ["urgentApp", "urgentSms", "urgentPhone"] as const) {
      const buzz = await client.im.v1.message[kind]({
        path: { message_id },
        params: { user_id_type: "open_id" },
        data: { user_id_list: [other.open_id, "ou_stranger"] },
      });
      assertShape(buzz, envelope(URGENT), `message.${kind}`);
      assert.deepEqual(buzz.data?.invalid_user_id_list, ["ou_stranger"]);
    }

    assertShape(
      await client.im.v1.message.delete({ path: { message_id } }),
      envelope(EMPTY),
      "message.delete",
    );
    const again = await sdkError(client.im.v1.message.delete({ path: { message_id } }));
    assert.equal(again.body.code, 230011);
  });
});
