/**
 * The Lark error bodies of the IM and contact routes, each with where its code and message were
 * read. Every one answers HTTP 400 unless said otherwise.
 *
 * Sources:
 * - field validation: real responses quoted in public projects, e.g.
 *   `{"code":99992402,"msg":"field validation failed","error":{"field_violations":[{"field":
 *   "receive_id_type","description":"receive_id_type is required"}]}}`;
 * - 230001 and its `ext=` reasons: Lark's "如何解决 230001 错误" page
 *   (open.feishu.cn/document/faq/trouble-shooting/how-to-resolve-error-230001);
 * - 230002's message: lark-cli `cmd/root_integration_test.go` ("Bot/User can NOT be out of the
 *   chat."); the other 230xxx codes: the error tables of im-v1 message create, reply, list, get;
 * - 232xxx: im-v1 chat create, get, list, search; 234xxx: im-v1 image create, file create,
 *   message-resource get; 41012/40001: contact-v3 user get.
 *
 * @module
 */

import { larkError } from "./context.ts";

/** Lark's gateway code for a field that breaks the API's declared rules. */
export const FIELD_VALIDATION_FAILED = 99992402;

/**
 * 99992402 with one field violation, as the gateway answers a missing required field, a value
 * outside its options or a length over its limit.
 *
 * @param field the field's name, e.g. "receive_id_type"
 * @param description e.g. "receive_id_type is required", "the max len is 50"
 * @param value the offending value, when there is one
 */
export function fieldViolation(field: string, description: string, value?: string): Response {
  const violation = value === undefined ? { field, description } : { field, value, description };
  return larkError(FIELD_VALIDATION_FAILED, "field validation failed", 400, {
    error: { field_violations: [violation] },
  });
}

/** 99992402 for a required field that is absent. */
export function required(field: string): Response {
  return fieldViolation(field, `${field} is required`);
}

/** 99992402 for a value outside a field's options. */
export function notAnOption(field: string, value: string, options: readonly string[]): Response {
  return fieldViolation(field, `options: [${options.join(",")}]`, value);
}

/** IM: an invalid request parameter. */
export const IM_INVALID_PARAM = 230001;
/** IM: the bot or user is not a member of the chat. */
export const NOT_IN_CHAT = 230002;

/** 230001 with the `ext=` reason Lark appends. */
export function imInvalid(reason: string): Response {
  return larkError(
    IM_INVALID_PARAM,
    `Your request contains an invalid request parameter, ext=${reason}`,
  );
}

/** 230002: the caller is not in the chat. */
export function notInChat(): Response {
  return larkError(NOT_IN_CHAT, "Bot/User can NOT be out of the chat.");
}

/** IM message errors other than 230001/230002, by code. */
export const IM_ERRORS = {
  recalled: [230011, "The message is recalled."],
  p2pShare: [230015, "P2P chat can NOT be shared."],
  notOwner: [230017, "Bot is NOT the owner of the resource."],
  tooLong: [230025, "The length of the message content reaches its limit."],
  resigned: [230029, "User has resigned."],
  fileTypeMismatch: [
    230055,
    "The type of file upload does not match the type of message being sent.",
  ],
  deleted: [230110, "Action unavailable as the message has been deleted."],
} as const;

/** Group chat errors, by code. */
export const CHAT_ERRORS = {
  invalidParam: [232001, "Your request contains an invalid request parameter."],
  invalidChatId: [232006, "Your request specifies a chat_id which is invalid."],
  notInChat: [232011, "Operator can NOT be out of the chat."],
  shortName: [232020, "Name can NOT be less than two characters for public chats."],
  resigned: [232022, "User has already resigned."],
  invalidOwner: [232030, "Your request specifies a user_id which is invalid."],
  external: [
    232033,
    "The operator or invited bots does NOT have the authority to manage external chats without the scope.",
  ],
  emptyName: [232042, "Public group chat's name should not be empty."],
  unavailableIds: [232043, "Your request contains unavailable ids."],
} as const;

/** Upload and resource errors, by code. */
export const RESOURCE_ERRORS = {
  invalidParam: [234001, "Invalid request param."],
  notInMessage: [234003, "File not in message."],
  appNotInChat: [234004, "App not in chat."],
  tooLarge: [234006, "The file size exceed the max value."],
  empty: [234010, "File's size can't be 0."],
  // Lark's spelling.
  badImage: [234011, "Can't regonnize the image format."],
  unsupportedType: [234043, "Unsupported message type."],
} as const;

/** Contact errors, by code. */
export const CONTACT_ERRORS = {
  invalidParam: [40001, "invalid parameter"],
  invalidUserId: [41012, "user id invalid error"],
} as const;

/** The response for one of the `[code, msg]` pairs above. */
export function larkFail(error: readonly [number, string]): Response {
  return larkError(error[0], error[1]);
}
