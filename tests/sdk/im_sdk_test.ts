/**
 * The official SDK against the sandbox's IM endpoints: message create, reply, list, get; image
 * and file create; message resource get; chat list, search, create and get. Every call is built
 * by the SDK, and every answer must have the fields and JS types of the SDK's response type
 * (types/index.d.ts, im.v1.*), nothing more. mget is not in the SDK: it goes through the SDK's
 * generic `client.request`, as lark-cli calls it (`shortcuts/im/helpers.go`, buildMGetURL).
 *
 * @module
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { assertShape, envelope, sdkError, t, withSdkSandbox } from "./_harness.ts";
import { I18N, MESSAGE } from "./_im_shapes.ts";
import { makePng } from "../../sandbox/im/seed_files.ts";
import { CHAT_WITHOUT_BOT } from "../../sandbox/core/seed_data.ts";

// ---- shapes from types/index.d.ts (im.v1.message, im.v1.chat) ----

const MESSAGE_PAGE = t.object({
  has_more: t.optional(t.boolean),
  page_token: t.optional(t.string),
  items: t.optional(t.array(MESSAGE)),
});
const MESSAGE_ITEMS = t.object({ items: t.optional(t.array(MESSAGE)) });
const MEMBERS_SETTING = t.enum("all_members", "only_owner");
const RESTRICTED = t.optional(t.object({
  status: t.optional(t.boolean),
  screenshot_has_permission_setting: t.optional(t.enum("all_members", "not_anyone")),
  download_has_permission_setting: t.optional(t.enum("all_members", "not_anyone")),
  message_has_permission_setting: t.optional(t.enum("all_members", "not_anyone")),
}));
const CHAT_STATUS = t.optional(t.enum("normal", "dissolved", "dissolved_save"));
const LIST_CHAT = t.object({
  chat_id: t.optional(t.string),
  avatar: t.optional(t.string),
  name: t.optional(t.string),
  description: t.optional(t.string),
  owner_id: t.optional(t.string),
  owner_id_type: t.optional(t.string),
  external: t.optional(t.boolean),
  tenant_key: t.optional(t.string),
  labels: t.optional(t.array(t.string)),
  chat_status: CHAT_STATUS,
  chat_mode: t.optional(t.enum("group", "p2p", "topic")),
  p2p_target_type: t.optional(t.enum("user", "bot")),
  p2p_target_id: t.optional(t.string),
});
const CHAT_PAGE = t.object({
  items: t.optional(t.array(LIST_CHAT)),
  page_token: t.optional(t.string),
  has_more: t.optional(t.boolean),
});
const CHAT_SETTINGS = {
  urgent_setting: t.optional(MEMBERS_SETTING),
  video_conference_setting: t.optional(MEMBERS_SETTING),
  pin_manage_setting: t.optional(MEMBERS_SETTING),
  add_member_permission: t.optional(t.string),
  share_card_permission: t.optional(t.string),
  at_all_permission: t.optional(t.string),
  edit_permission: t.optional(t.string),
  group_message_type: t.optional(t.string),
  chat_mode: t.optional(t.string),
  chat_type: t.optional(t.string),
  chat_tag: t.optional(t.string),
  external: t.optional(t.boolean),
  tenant_key: t.optional(t.string),
  join_message_visibility: t.optional(t.string),
  leave_message_visibility: t.optional(t.string),
  membership_approval: t.optional(t.string),
  moderation_permission: t.optional(t.string),
  labels: t.optional(t.array(t.string)),
  toolkit_ids: t.optional(t.array(t.string)),
  restricted_mode_setting: RESTRICTED,
  hide_member_count_setting: t.optional(MEMBERS_SETTING),
};
const CREATED_CHAT = t.object({
  chat_id: t.optional(t.string),
  avatar: t.optional(t.string),
  name: t.optional(t.string),
  description: t.optional(t.string),
  i18n_names: I18N,
  owner_id: t.optional(t.string),
  owner_id_type: t.optional(t.string),
  ...CHAT_SETTINGS,
});
const CHAT_DETAIL = t.object({
  avatar: t.optional(t.string),
  name: t.optional(t.string),
  description: t.optional(t.string),
  i18n_names: I18N,
  owner_id_type: t.optional(t.string),
  owner_id: t.optional(t.string),
  user_manager_id_list: t.optional(t.array(t.string)),
  bot_manager_id_list: t.optional(t.array(t.string)),
  user_count: t.optional(t.string),
  bot_count: t.optional(t.string),
  chat_status: CHAT_STATUS,
  ...CHAT_SETTINGS,
});
// im.v1.image.create and im.v1.file.create answer `data` itself (lib/index.js: `res.data`).
const IMAGE_KEY = t.object({ image_key: t.optional(t.string) });
const FILE_KEY = t.object({ file_key: t.optional(t.string) });

// Sending as a user takes im:message and im:message.send_as_user both (message create doc).
const USER_SCOPES = [
  "im:message",
  "im:message.send_as_user",
  "im:message.group_msg:get_as_user",
  "im:message.p2p_msg:get_as_user",
  "im:message:readonly",
  "im:chat:read",
  "im:chat:create_by_user",
];

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

Deno.test("SDK: message create, reply in thread, list (chat and thread), get and mget", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const user = asUser(await signIn(USER_SCOPES));
    const chatId = sandbox.chats[0].chat_id;
    const sent = await client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: chatId, msg_type: "text", content: JSON.stringify({ text: "hi" }) },
    }, user);
    assertShape(sent, envelope(MESSAGE), "message.create");
    assert.equal(sent.data?.chat_id, chatId);
    const byUnion = await client.im.v1.message.create({
      params: { receive_id_type: "union_id" },
      data: {
        receive_id: sandbox.users[2].union_id,
        msg_type: "text",
        content: JSON.stringify({ text: "direct" }),
        uuid: "sdk-1",
      },
    });
    assertShape(byUnion, envelope(MESSAGE), "message.create as bot");
    assert.equal(byUnion.data?.sender?.sender_type, "app");

    const reply = await client.im.v1.message.reply({
      path: { message_id: sent.data!.message_id! },
      data: {
        msg_type: "text",
        content: JSON.stringify({ text: "in thread" }),
        reply_in_thread: true,
      },
    }, user);
    assertShape(reply, envelope(MESSAGE), "message.reply");
    assert.match(reply.data!.thread_id!, /^omt_/);
    assert.equal(reply.data?.root_id, sent.data?.message_id);

    const page = await client.im.v1.message.list({
      params: {
        container_id_type: "chat",
        container_id: chatId,
        sort_type: "ByCreateTimeDesc",
        page_size: 50,
        with_sender_name: true,
      },
    }, user);
    assertShape(page, envelope(MESSAGE_PAGE), "message.list");
    assert.equal(page.data?.items?.[0].message_id, sent.data?.message_id);
    assert.equal(page.data?.items?.[0].thread_id, reply.data?.thread_id);
    assert.equal(page.data?.has_more, true);
    assert.equal(typeof page.data?.page_token, "string");
    const next = await client.im.v1.message.list({
      params: {
        container_id_type: "chat",
        container_id: chatId,
        sort_type: "ByCreateTimeDesc",
        page_size: 50,
        with_sender_name: true,
        page_token: page.data!.page_token!,
      },
    }, user);
    assertShape(next, envelope(MESSAGE_PAGE), "message.list page 2");
    assert.equal(next.data?.items?.length, 11, "60 seeded and 1 sent, 50 per page");

    let inThread = 0;
    for await (
      const chunk of await client.im.v1.message.listWithIterator({
        params: { container_id_type: "thread", container_id: reply.data!.thread_id!, page_size: 1 },
      }, user)
    ) {
      assertShape(chunk, t.object({ items: t.optional(t.array(MESSAGE)) }), "listWithIterator");
      inThread += chunk?.items?.length ?? 0;
    }
    assert.equal(inThread, 2, "the root and the reply");

    const got = await client.im.v1.message.get({
      path: { message_id: reply.data!.message_id! },
      params: { user_id_type: "union_id" },
    }, user);
    assertShape(got, envelope(MESSAGE_ITEMS), "message.get");
    assert.equal(got.data?.items?.[0].sender?.id, sandbox.users[0].union_id);

    const ids = page.data!.items!.slice(0, 3).map((m) => m.message_id!);
    const query = ids.map((id) => `message_ids=${encodeURIComponent(id)}`).join("&");
    const mget = await client.request({
      method: "GET",
      url: `/open-apis/im/v1/messages/mget?card_msg_content_type=raw_card_content&${query}`,
    }, user);
    assertShape(mget, envelope(MESSAGE_ITEMS), "messages mget");
    assert.deepEqual(mget.data.items.map((m: { message_id: string }) => m.message_id), ids);

    const outside = await sdkError(client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: {
        receive_id: sandbox.chats[CHAT_WITHOUT_BOT].chat_id,
        msg_type: "text",
        content: JSON.stringify({ text: "x" }),
      },
    }));
    assert.equal(outside.status, 400);
    assert.equal(outside.body.code, 230002);
  });
});

Deno.test("SDK: image and file create, and message resource get streams them back", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const user = asUser(await signIn(USER_SCOPES));
    // Lark's image and file create docs take the tenant token alone: the SDK's default. The
    // user then sends the keys the app uploaded.
    const png = makePng(24, [10, 20, 30], [250, 200, 150]);
    const image = await client.im.v1.image.create({
      data: { image_type: "message", image: Buffer.from(png) },
    });
    assertShape(image, IMAGE_KEY, "image.create");
    const pdf = Buffer.from("%PDF-1.4\n% sandbox\n%%EOF\n");
    const file = await client.im.v1.file.create({
      data: { file_type: "pdf", file_name: "notes.pdf", duration: 0, file: pdf },
    });
    assertShape(file, FILE_KEY, "file.create");
    const granted = asUser(await signIn([...USER_SCOPES, "im:resource", "im:resource:upload"]));
    const refused = await sdkError(client.im.v1.image.create({
      data: { image_type: "message", image: Buffer.from(png) },
    }, granted));
    assert.equal(refused.body.code, 99991679, "a user token is refused, whatever it was granted");
    const chatId = sandbox.chats[0].chat_id;
    const post = await client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: {
        receive_id: chatId,
        msg_type: "post",
        content: JSON.stringify({
          zh_cn: { title: "chart", content: [[{ tag: "img", image_key: image!.image_key }]] },
        }),
      },
    }, user);
    const fileMessage = await client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: {
        receive_id: chatId,
        msg_type: "file",
        content: JSON.stringify({ file_key: file!.file_key }),
      },
    }, user);

    const gotImage = await client.im.v1.messageResource.get({
      path: { message_id: post.data!.message_id!, file_key: image!.image_key! },
      params: { type: "image" },
    }, user);
    assert.equal(gotImage.headers["content-type"], "image/png");
    assert.equal(gotImage.headers["content-length"], String(png.length));
    assert.deepEqual(await readAll(gotImage.getReadableStream()), png);
    const gotFile = await client.im.v1.messageResource.get({
      path: { message_id: fileMessage.data!.message_id!, file_key: file!.file_key! },
      params: { type: "file" },
    }, user);
    assert.equal(gotFile.headers["content-type"], "application/pdf");
    assert.match(gotFile.headers["content-disposition"], /filename="notes\.pdf"/);
    const path = await Deno.makeTempFile({ suffix: ".pdf" });
    try {
      await gotFile.writeFile(path);
      assert.deepEqual(await Deno.readFile(path), new Uint8Array(pdf));
    } finally {
      await Deno.remove(path);
    }

    const empty = await sdkError(client.im.v1.file.create({
      data: { file_type: "pdf", file_name: "empty.pdf", file: Buffer.alloc(0) },
    }));
    assert.deepEqual(empty.body, { code: 234010, msg: "File's size can't be 0." });
    const notInMessage = await sdkError(client.im.v1.messageResource.get({
      path: { message_id: post.data!.message_id!, file_key: file!.file_key! },
      params: { type: "file" },
    }, user));
    assert.equal(notInMessage.status, 400);
  });
});

Deno.test("SDK: chat list, search, create and get", async () => {
  await withSdkSandbox({ startDay: "2026-03-02" }, async ({ sandbox, client, signIn, asUser }) => {
    const user = asUser(await signIn(USER_SCOPES));
    const list = await client.im.v1.chat.list({ params: { page_size: 5 } }, user);
    assertShape(list, envelope(CHAT_PAGE), "chat.list");
    assert.equal(list.data?.has_more, true);
    let names = 0;
    for await (
      const chunk of await client.im.v1.chat.listWithIterator({ params: { page_size: 4 } })
    ) {
      names += chunk?.items?.length ?? 0;
    }
    assert.equal(names, 9, "the bot is in nine of the ten seeded chats");
    const search = await client.im.v1.chat.search({ params: { query: "Release" } }, user);
    assertShape(search, envelope(CHAT_PAGE), "chat.search");
    assert.deepEqual(search.data?.items?.map((c) => c.name), ["Release Train"]);
    const created = await client.im.v1.chat.create({
      params: { user_id_type: "open_id", uuid: "sdk-chat" },
      data: {
        name: "SDK room",
        description: "made by the SDK",
        user_id_list: [sandbox.users[1].open_id],
        bot_id_list: [sandbox.appId],
        chat_mode: "group",
        chat_type: "private",
      },
    }, user);
    assertShape(created, envelope(CREATED_CHAT), "chat.create");
    const again = await client.im.v1.chat.create({
      params: { user_id_type: "open_id", uuid: "sdk-chat" },
      data: { name: "SDK room", user_id_list: [sandbox.users[1].open_id] },
    }, user);
    assert.equal(again.data?.chat_id, created.data?.chat_id);
    const detail = await client.im.v1.chat.get({ path: { chat_id: created.data!.chat_id! } });
    assertShape(detail, envelope(CHAT_DETAIL), "chat.get");
    assert.equal(detail.data?.user_count, "2");
    assert.equal(detail.data?.bot_count, "1");
    const unknown = await sdkError(client.im.v1.chat.get({ path: { chat_id: "oc_nope" } }));
    assert.equal(unknown.body.code, 232006);
  });
});
