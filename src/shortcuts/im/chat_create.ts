/**
 * `hark im +chat-create`: create a group chat as the user or the bot, with members. The request
 * carries an idempotency key (Lark's `uuid`: the same key creates at most one chat in 10 hours),
 * so a retried create never makes two chats.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { type JsonObject, objectOf, stringField } from "../../json/fields.ts";
import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import {
  idListParam,
  idParam,
  quoted,
  USER_ID,
  type UserIdType,
  userIdTypeOf,
} from "../contact/ids.ts";
import { keyOf, MAX_UUID_LENGTH } from "./outgoing.ts";

/** The most members one create takes (Lark's `user_id_list`). */
export const MAX_MEMBERS = 50;
/** The most bots one create takes (Lark's `bot_id_list`). */
export const MAX_BOTS = 5;
/** An app's id: `cli_…`. */
const APP_ID = { noun: "app id", prefixes: ["cli_"] };
/** The longest chat name (lark-cli `+chat-create`). */
export const MAX_NAME_LENGTH = 60;
/** The longest description (lark-cli `+chat-create`). */
export const MAX_DESCRIPTION_LENGTH = 100;
/** `--type`'s values. */
export const CHAT_TYPES = ["private", "public"] as const;

/** Creating chats, per identity (lark-cli `+chat-create`). */
const SCOPES = { user: ["im:chat:create_by_user"], bot: ["im:chat:create"] };

const KINDS: Record<UserIdType, string> = {
  open_id: "open ids (ou_…)",
  union_id: "union ids (on_…)",
  user_id: "user ids",
};

const PARAMS = {
  name: param.string({ description: "the chat's name", required: true }),
  members: param.string({
    description: `people to add, separated by commas: open ids (ou_…), union ids (on_…) or ` +
      `user ids, one kind, at most ${MAX_MEMBERS}`,
    valueName: "<id,…>",
  }),
  bots: param.string({
    description: `bots to add, by app id (cli_…), separated by commas, at most ${MAX_BOTS}`,
    valueName: "<cli_id,…>",
  }),
  owner: param.string({
    description: "the chat's owner (the same kind of id as --members); default: who creates it",
    valueName: "<id>",
  }),
  "set-bot-manager": param.bool({
    description: "make the creating bot a manager of the chat it hands to --owner (--as bot)",
  }),
  description: param.string({ description: "what the chat is for" }),
  type: param.enumOf(CHAT_TYPES, {
    description: "public chats can be found and joined by anyone in the company",
    default: "private",
  }),
  "idempotency-key": param.string({
    description: "sent as uuid; the same key within 10 hours creates once (default: a new UUID)",
    valueName: "<key>",
  }),
};

/** The values of `+chat-create`. */
export type ChatCreateValues = ValuesOf<typeof PARAMS>;

/**
 * The members of `--members` and their one id type.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--members` for a bad id, too many, or mixed id kinds
 */
export function membersOf(
  input: ShortcutInput<Pick<Partial<ChatCreateValues>, "members">>,
): { ids: string[]; type: UserIdType } {
  const ids = idListParam(input, "members", USER_ID, MAX_MEMBERS);
  const types = [...new Set(ids.map(userIdTypeOf))];
  if (types.length > 1) {
    throw new ValidationError(
      `Invalid value for --members: it mixes ${types.map((t) => KINDS[t]).join(" and ")}; ` +
        "Lark takes one kind of id per request",
      { param: "--members", suggestion: "Give open ids (ou_…) only, say" },
    );
  }
  return { ids, type: types[0] ?? "open_id" };
}

/**
 * The members and the owner, in one id type (Lark's `user_id_type` covers both).
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--members` or `--owner`
 */
export function peopleOf(
  input: ShortcutInput<Pick<Partial<ChatCreateValues>, "members" | "owner">>,
): { ids: string[]; type: UserIdType; owner?: string } {
  const members = membersOf(input);
  const owner = idParam(input, "owner", USER_ID);
  if (owner === undefined) return members;
  const type = userIdTypeOf(owner);
  if (members.ids.length > 0 && type !== members.type) {
    throw new ValidationError(
      `Invalid value for --owner: it is one of the ${KINDS[type]} and --members holds ` +
        `${KINDS[members.type]}; Lark reads both as one kind`,
      { param: "--owner", suggestion: "Give the owner as the same kind of id as --members" },
    );
  }
  return { ids: members.ids, type, owner };
}

/**
 * Checks a chat's name or description as typed.
 *
 * @param value the value; nothing to check when `undefined`
 * @param flag the flag, for messages: `--name`
 * @param max the most characters
 * @param required whether blank text is refused
 * @throws {ValidationError} naming the flag for blank (when required), over-long or
 *   control-laden text
 */
export function checkChatText(
  value: string | undefined,
  flag: string,
  max: number,
  required: boolean,
): void {
  if (value === undefined) return;
  const length = [...value.trim()].length;
  // deno-lint-ignore no-control-regex
  if ((required && length === 0) || length > max || /[\x00-\x08\x0b-\x1f\x7f]/.test(value)) {
    throw new ValidationError(
      `Invalid value ${quoted(value)} for ${flag}: expected ${required ? 1 : 0} to ${max} ` +
        "characters of text",
      { param: flag },
    );
  }
}

/**
 * Checks the name, description, type, members and key.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag
 */
export function checkChat(input: ShortcutInput<ChatCreateValues>): void {
  checkChatText(input.values.name, "--name", MAX_NAME_LENGTH, true);
  checkChatText(input.values.description, "--description", MAX_DESCRIPTION_LENGTH, false);
  const name = input.values.name.trim();
  if (input.values.type === "public" && [...name].length < 2) {
    throw new ValidationError("A public chat's --name needs at least 2 characters", {
      param: "--name",
    });
  }
  peopleOf(input);
  idListParam(input, "bots", APP_ID, MAX_BOTS);
  if (input.values["set-bot-manager"] === true) {
    if (input.identity !== "bot" || input.values.owner === undefined) {
      throw new ValidationError(
        "--set-bot-manager needs --as bot and an --owner: the bot that creates the chat and " +
          "hands it over stays a manager",
        { param: "--set-bot-manager" },
      );
    }
  }
  const key = input.values["idempotency-key"];
  if (key !== undefined && (key.trim() === "" || key.length > MAX_UUID_LENGTH)) {
    throw new ValidationError(
      `Invalid value ${quoted(key)} for --idempotency-key: expected 1 to ${MAX_UUID_LENGTH} ` +
        "characters",
      { param: "--idempotency-key" },
    );
  }
}

/**
 * The create request (`POST /open-apis/im/v1/chats?user_id_type&uuid`).
 *
 * @param input the shortcut input
 * @param uuid the idempotency key
 */
export function createChatRequest(
  input: ShortcutInput<ChatCreateValues>,
  uuid: string,
): ApiRequest {
  const { ids, type, owner } = peopleOf(input);
  const bots = idListParam(input, "bots", APP_ID, MAX_BOTS);
  const description = input.values.description;
  const manager = input.values["set-bot-manager"] === true;
  return {
    method: "POST",
    path: "/open-apis/im/v1/chats",
    query: { user_id_type: type, uuid, ...(manager ? { set_bot_manager: true } : {}) },
    body: {
      name: input.values.name.trim(),
      ...(description === undefined ? {} : { description: description.trim() }),
      ...(owner === undefined ? {} : { owner_id: owner }),
      chat_type: input.values.type,
      user_id_list: ids,
      ...(bots.length === 0 ? {} : { bot_id_list: bots }),
    },
    idempotencyKey: uuid,
    scopes: [...SCOPES[input.identity]],
  };
}

/**
 * The created chat as an output row: the answer's chat as sent; when it holds no chat id, what
 * was asked for and a warning that says the chat was created all the same and how to create
 * nothing twice.
 *
 * @param chat the answer's `data` (an empty object when it was none)
 * @param input the shortcut input (the values asked for, warnings)
 */
export function createdChatRow(
  chat: JsonObject,
  input: ShortcutInput<ChatCreateValues>,
): Record<string, unknown> {
  if (stringField(chat, "chat_id") !== undefined) return chat;
  input.warn(
    "The chat was created (the service accepted it), but the service's answer holds no chat " +
      "id; running the command again with --idempotency-key " +
      `${keyOf(input)} creates nothing new`,
  );
  return { name: input.values.name.trim(), chat_type: input.values.type, ...chat };
}

/** `im +chat-create`. */
export const chatCreate = defineShortcut({
  service: "im",
  verb: "+chat-create",
  description: "Create a group chat with members (safe to retry: it carries an idempotency key)",
  examples: [
    "hark im +chat-create --name 'Release 2.0' --members ou_123,ou_456",
    "hark im +chat-create --name Incidents --members ou_123 --type public --as bot",
    "hark im +chat-create --name 'Launch' --members ou_123 --idempotency-key launch-2026",
    "hark im +chat-create --name Ops --members ou_1 --owner ou_1 --bots cli_a --as bot",
  ],
  identities: ["user", "bot"],
  scopes: SCOPES,
  effect: "write",
  idempotent: true,
  idempotencyKey: "idempotency-key",
  params: PARAMS,
  validate: checkChat,
  requests: (input) => [createChatRequest(input, keyOf(input))],
  run: async (input, client) =>
    objectOf(await client.request(createChatRequest(input, keyOf(input)))),
  output: createdChatRow,
  columns: [
    { header: "CHAT ID", value: "chat_id", kind: "id", priority: 4 },
    { header: "NAME", value: "name", priority: 3 },
    { header: "TYPE", value: "chat_type", priority: 1 },
    { header: "OWNER ID", value: "owner_id", kind: "id", priority: 2 },
  ],
});
