/**
 * `hark im +reply`: reply to a message, in the chat or in its thread (`--in-thread` starts one
 * on a message that has none), with the bodies `+send` takes. Like `+send` it carries an
 * idempotency key, so a retried reply is posted once.
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { checkId, MESSAGE_ID } from "../contact/ids.ts";
import {
  BODIES,
  BODY_PARAMS,
  checkOutgoing,
  postedRow,
  postingHooks,
  SEND_SCOPES,
  sendScopes,
} from "./outgoing.ts";
import { sentColumns } from "./send.ts";

const PARAMS = {
  "message-id": param.string({
    description: "the message to reply to",
    required: true,
    valueName: "<om_id>",
  }),
  "in-thread": param.bool({
    description: "reply in the message's thread, starting one if it has none",
    default: false,
  }),
  ...BODY_PARAMS,
};

/** The values of `+reply`. */
export type ReplyValues = ValuesOf<typeof PARAMS>;

/**
 * The reply request (`POST /open-apis/im/v1/messages/{message_id}/reply`).
 *
 * @param input the shortcut input
 * @param uuid the idempotency key
 * @param message the type and content
 */
export function replyRequest(
  input: ShortcutInput<ReplyValues>,
  uuid: string,
  message: { msgType: string; content: string },
): ApiRequest {
  const messageId = checkId(input.values["message-id"], "--message-id", MESSAGE_ID);
  return {
    method: "POST",
    path: `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}/reply`,
    body: {
      msg_type: message.msgType,
      content: message.content,
      reply_in_thread: input.values["in-thread"],
      uuid,
    },
    idempotencyKey: uuid,
    scopes: sendScopes(input),
  };
}

/** `im +reply`. */
export const reply = defineShortcut({
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
  idempotencyKey: "idempotency-key",
  oneOf: [BODIES],
  params: PARAMS,
  async validate(input) {
    checkId(input.values["message-id"], "--message-id", MESSAGE_ID);
    await checkOutgoing(input);
  },
  ...postingHooks(replyRequest),
  output: postedRow,
  columns: (input) => [
    ...sentColumns(input),
    { header: "THREAD ID", value: "thread_id", kind: "id", priority: 0 },
  ],
});
