/**
 * `hark im +send`: send a message to a chat or a person: text, Markdown, raw content, or an
 * image or a file uploaded first. A send carries an idempotency key (`uuid`), so a retried send
 * never posts twice.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectField, stringField } from "../../json/fields.ts";
import type { Column } from "../../output/mod.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { CHAT_ID, checkId, EMAIL, USER_ID, type UserIdType, userIdTypeOf } from "../contact/ids.ts";
import { localTime } from "./message_rows.ts";
import {
  BODIES,
  BODY_PARAMS,
  type BodyValues,
  checkOutgoing,
  outgoingOf,
  postedRow,
  postingHooks,
  previewContent,
  SEND_SCOPES,
  sendScopes,
} from "./outgoing.ts";

export { MAX_UUID_LENGTH, MSG_TYPES } from "./outgoing.ts";

/** The receiver parameters (`+send`, `+forward`): exactly one is given. */
export const RECEIVER_PARAMS = {
  "chat-id": param.string({ description: "the chat to send to", valueName: "<oc_id>" }),
  "user-id": param.string({
    description: "the person to send to: an open id (ou_…), a union id (on_…) or a user id",
    valueName: "<id>",
  }),
  email: param.string({ description: "the person to send to, by email" }),
};

/** The receiver flags: exactly one is given. */
export const RECEIVERS = ["chat-id", "user-id", "email"] as const;

const PARAMS = { ...RECEIVER_PARAMS, ...BODY_PARAMS };

/** The values of `+send`. */
export type SendValues = ValuesOf<typeof PARAMS>;

/** The values of the receiver parameters, each possibly absent. */
export type ReceiverValues = Partial<ValuesOf<typeof RECEIVER_PARAMS>>;

/** The receiver of a message. */
export interface Receiver {
  /** `receive_id_type`. */
  type: "chat_id" | "email" | UserIdType;
  /** `receive_id`. */
  id: string;
}

/**
 * The receiver: exactly one of `--chat-id`, `--user-id` (an `ou_` id is an open id, an `on_` id
 * a union id, anything else a user id) and `--email`.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the three flags when none or several are given, or the flag
 *   of a malformed id
 */
export function receiverOf(input: ShortcutInput<ReceiverValues>): Receiver {
  const given = RECEIVERS.flatMap((name) => {
    const value = input.values[name];
    return value === undefined ? [] : [{ name, value }];
  });
  if (given.length !== 1) {
    throw new ValidationError(
      given.length === 0
        ? "Missing receiver: give one of --chat-id, --user-id, --email"
        : `Conflicting flags: ${given.map((g) => `--${g.name}`).join(", ")}; give exactly one ` +
          "of --chat-id, --user-id, --email",
      { param: given.length === 0 ? "--chat-id" : `--${given[1].name}` },
    );
  }
  const { name, value } = given[0];
  const flag = `--${name}`;
  if (name === "chat-id") return { type: "chat_id", id: checkId(value, flag, CHAT_ID) };
  if (name === "email") {
    return { type: "email", id: checkId(value, flag, EMAIL) };
  }
  const id = checkId(value, flag, USER_ID);
  return { type: userIdTypeOf(id), id };
}

/**
 * The message type and content of the body flags (without uploading: a file's key is a
 * placeholder).
 *
 * @param input the shortcut input
 * @throws {ValidationError} as {@link outgoingOf}
 */
export function messageOf(input: ShortcutInput<BodyValues>): { msgType: string; content: string } {
  return previewContent(outgoingOf(input));
}

/**
 * The send request.
 *
 * @param input the shortcut input
 * @param uuid the idempotency key
 * @param message the type and content
 */
export function sendRequest(
  input: ShortcutInput<ReceiverValues & BodyValues>,
  uuid: string,
  message: { msgType: string; content: string } = messageOf(input),
): ApiRequest {
  const receiver = receiverOf(input);
  return {
    method: "POST",
    path: "/open-apis/im/v1/messages",
    query: { receive_id_type: receiver.type },
    body: {
      receive_id: receiver.id,
      msg_type: message.msgType,
      content: message.content,
      uuid,
    },
    idempotencyKey: uuid,
    scopes: sendScopes(input),
  };
}

/** `im +send`. Acts as the user by default (like every shortcut); `--as bot` sends as the app. */
export const send = defineShortcut({
  service: "im",
  verb: "+send",
  description: "Send a message, an image or a file to a chat or a person (safe to retry: it " +
    "carries an idempotency key)",
  examples: [
    "hark im +send --chat-id oc_123 --text 'Deploy finished'",
    "echo 'Build #42 passed' | hark im +send --email ana@example.com",
    "hark im +send --user-id ou_123 --markdown '**Done**: see the [report](https://example.com)'",
    "hark im +send --chat-id oc_123 --file ./report.pdf",
    "hark im +send --chat-id oc_123 --image ./chart.png --as bot",
    `hark im +send --chat-id oc_123 --msg-type interactive --content '{"elements": []}' --as bot`,
  ],
  identities: ["user", "bot"],
  scopes: SEND_SCOPES,
  effect: "write",
  idempotent: true,
  idempotencyKey: "idempotency-key",
  oneOf: [RECEIVERS, BODIES],
  params: PARAMS,
  async validate(input) {
    receiverOf(input);
    await checkOutgoing(input);
  },
  ...postingHooks(sendRequest, (input) => {
    const receiver = receiverOf(input);
    return { chatId: receiver.type === "chat_id" ? receiver.id : undefined };
  }),
  output: postedRow,
  columns: (input) => sentColumns(input),
});

/**
 * The table columns of a sent message (`+send`, `+reply`).
 *
 * @param input the shortcut input (time zone)
 */
export function sentColumns(input: ShortcutInput<unknown>): Column<Record<string, unknown>>[] {
  return [
    { header: "MESSAGE ID", value: "message_id", kind: "id", priority: 4 },
    { header: "CHAT ID", value: "chat_id", kind: "id", priority: 3 },
    { header: "MSG TYPE", value: "msg_type", priority: 1 },
    { header: "SENT", kind: "time", priority: 2, value: (row) => localTime(row, input) },
    // What `+download --file-key` needs; empty (and left out) for a message without a file.
    { header: "FILE KEY", kind: "id", priority: 0, value: mediaKeyOf },
  ];
}

/**
 * The `file_key` or `image_key` of a message row's content, for `+download`.
 *
 * @param row a message row (`body.content` is the content JSON as text)
 * @returns the key, or `""` when the content names none
 */
export function mediaKeyOf(row: Record<string, unknown>): string {
  const content = stringField(objectField(row, "body"), "content");
  if (content === undefined) return "";
  try {
    const parsed: unknown = JSON.parse(content);
    return stringField(parsed, "file_key") ?? stringField(parsed, "image_key") ?? "";
  } catch {
    return "";
  }
}
