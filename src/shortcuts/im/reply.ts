/**
 * `hark im +reply`: reply to a message, in the chat or in its thread (`--in-thread` starts one
 * on a message that has none), with the bodies `+send` takes. Like `+send` it carries an
 * idempotency key, so a retried reply is posted once.
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { idParam, MESSAGE_ID } from "../contact/ids.ts";
import { type MessageItem, messageRow } from "./message_rows.ts";
import { BODY_PARAMS, checkOutgoing, postingHooks, SEND_SCOPES, sendScopes } from "./outgoing.ts";
import { sentColumns } from "./send.ts";

/**
 * The reply request (`POST /open-apis/im/v1/messages/{message_id}/reply`).
 *
 * @param input the shortcut input
 * @param uuid the idempotency key
 * @param message the type and content
 */
export function replyRequest(
  input: ShortcutInput,
  uuid: string,
  message: { msgType: string; content: string },
): ApiRequest {
  const messageId = idParam(input, "message-id", MESSAGE_ID)!;
  return {
    method: "POST",
    path: `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}/reply`,
    body: {
      msg_type: message.msgType,
      content: message.content,
      reply_in_thread: input.values["in-thread"] === true,
      uuid,
    },
    idempotencyKey: uuid,
    scopes: sendScopes(input),
  };
}

/** `im +reply`. */
export const reply = defineShortcut<Record<string, unknown>>({
  service: "im",
  verb: "+reply",
  description: "Reply to a message, in the chat or in its thread (safe to retry: it carries an " +
    "idempotency key)",
  examples: [
    "hark im +reply --message-id om_123 --text 'On it'",
    "hark im +reply --message-id om_123 --in-thread --markdown '**Fixed** in #42'",
    "git log -1 --format=%s | hark im +reply --message-id om_123 --as bot",
    "hark im +reply --message-id om_123 --in-thread --file ./trace.log",
  ],
  identities: ["user", "bot"],
  scopes: SEND_SCOPES,
  effect: "write",
  idempotent: true,
  params: [
    {
      name: "message-id",
      type: "string",
      description: "the message to reply to",
      required: true,
      valueName: "<om_id>",
    },
    {
      name: "in-thread",
      type: "bool",
      description: "reply in the message's thread, starting one if it has none",
      default: false,
    },
    ...BODY_PARAMS,
  ],
  async validate(input) {
    idParam(input, "message-id", MESSAGE_ID);
    await checkOutgoing(input);
  },
  ...postingHooks(replyRequest),
  output: (result, input) => messageRow(result as MessageItem, input.timeZone),
  columns: (input) => [
    ...sentColumns(input),
    { header: "THREAD ID", value: "thread_id", kind: "id", priority: 0 },
  ],
});
