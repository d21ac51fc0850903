/**
 * The message shapes of the Node SDK's im.v1.message types (types/index.d.ts), shared by the IM
 * conformance tests.
 *
 * @module
 */

import { t } from "./_harness.ts";

/** Localised names. */
export const I18N = t.optional(t.object({
  zh_cn: t.optional(t.string),
  en_us: t.optional(t.string),
  ja_jp: t.optional(t.string),
}));
/** A message as create, get, list and forward answer it. */
export const MESSAGE = t.object({
  message_id: t.optional(t.string),
  root_id: t.optional(t.string),
  parent_id: t.optional(t.string),
  thread_id: t.optional(t.string),
  msg_type: t.optional(t.string),
  create_time: t.optional(t.string),
  update_time: t.optional(t.string),
  deleted: t.optional(t.boolean),
  updated: t.optional(t.boolean),
  chat_id: t.optional(t.string),
  sender: t.optional(t.object({
    id: t.string,
    id_type: t.string,
    sender_type: t.string,
    tenant_key: t.optional(t.string),
    sender_name: t.optional(t.string),
    open_bot_id: t.optional(t.string),
    sender_i18n_names: I18N,
  })),
  body: t.optional(t.object({ content: t.string })),
  mentions: t.optional(t.array(t.object({
    key: t.string,
    id: t.string,
    id_type: t.string,
    name: t.string,
    tenant_key: t.optional(t.string),
  }))),
  upper_message_id: t.optional(t.string),
  message_app_link: t.optional(t.string),
  message_position: t.optional(t.string),
  thread_message_position: t.optional(t.string),
});
