/**
 * Emoji reactions on a message: `+reactions` lists them, `+reaction-add` adds one,
 * `+reaction-remove` takes one of your own back. Endpoints: `GET`, `POST
 * /open-apis/im/v1/messages/{message_id}/reactions` and `DELETE …/reactions/{reaction_id}`;
 * either identity, the caller being in the message's chat (Lark's message-reaction docs).
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { booleanField, isObject, objectsField, stringField } from "../../json/fields.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { checkId, MESSAGE_ID, quoted } from "../contact/ids.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "./resume.ts";

/** The largest page of reactions Lark returns. */
export const MAX_REACTION_PAGE = 50;

/** lark-cli `skills/lark-im/SKILL.md`: reactions.list; Lark's doc adds im:message:readonly. */
const READ = ["im:message.reactions:read"];
/** lark-cli: reactions.create and delete; Lark's doc adds im:message. */
const WRITE = ["im:message.reactions:write_only"];
const READ_ALTERNATIVES = { "im:message.reactions:read": ["im:message:readonly"] };
const WRITE_ALTERNATIVES = { "im:message.reactions:write_only": ["im:message"] };

/** An emoji type as Lark names them: `THUMBSUP`, `SMILE`, `OnIt`, `2022`, `Status_PrivateMessage`. */
const EMOJI_SHAPE = /^[A-Za-z0-9_]{1,64}$/;

/** `--message-id`, required, for every message operation. */
export const MESSAGE_PARAM = param.string({
  description: "the message (om_…)",
  required: true,
  valueName: "<om_id>",
});

/**
 * The path of a message, or of something under it, with the id checked.
 *
 * @param input the shortcut input
 * @param tail what follows the message id, e.g. "/reactions"
 * @throws {ValidationError} naming `--message-id` for a malformed id
 */
export function messagePath(
  input: ShortcutInput<{ readonly "message-id": string }>,
  tail = "",
): string {
  const id = checkId(input.values["message-id"], "--message-id", MESSAGE_ID);
  return `/open-apis/im/v1/messages/${encodeURIComponent(id)}${tail}`;
}

/**
 * An emoji type, checked for the shape Lark's names have.
 *
 * @param value the flag's value
 * @param flag the flag, for the message
 * @throws {ValidationError} naming the flag
 */
export function emojiOf(value: string, flag: string): string {
  const emoji = value.trim();
  if (!EMOJI_SHAPE.test(emoji)) {
    throw new ValidationError(
      `Invalid value ${quoted(value)} for ${flag}: expected an emoji type such as THUMBSUP, ` +
        "SMILE, OK or DONE",
      {
        param: flag,
        suggestion: "Lark's emoji types: open.feishu.cn/document/server-docs/im-v1/" +
          "message-reaction/emojis-introduce",
      },
    );
  }
  return emoji;
}

/**
 * One reaction as a row: its id, emoji, who added it and when.
 *
 * @param item a reaction as Lark returns it
 */
export function reactionRow(item: unknown): Record<string, unknown> {
  const operator = isObject(item) && isObject(item.operator) ? item.operator : {};
  const time = stringField(item, "action_time");
  return {
    reaction_id: stringField(item, "reaction_id") ?? "",
    emoji_type: isObject(item) ? stringField(item.reaction_type, "emoji_type") ?? "" : "",
    operator_id: stringField(operator, "operator_id") ?? "",
    operator_type: stringField(operator, "operator_type") ?? "",
    action_time: time !== undefined && /^\d{1,16}$/.test(time)
      ? new Date(Number(time)).toISOString()
      : "",
  };
}

const COLUMNS = [
  { header: "EMOJI", value: "emoji_type", priority: 5 },
  { header: "BY", value: "operator_id", kind: "id" as const, priority: 4 },
  { header: "AT", value: "action_time", priority: 2 },
  { header: "REACTION ID", value: "reaction_id", kind: "id" as const, priority: 3 },
];

const LIST_PARAMS = {
  "message-id": MESSAGE_PARAM,
  emoji: param.string({ description: "only reactions of this emoji type", valueName: "<type>" }),
  "page-token": PAGE_TOKEN_PARAM,
  ...pagingParams(20, "reactions"),
};

/** The values of `+reactions`. */
export type ReactionsValues = ValuesOf<typeof LIST_PARAMS>;

/**
 * The request of one page of reactions.
 *
 * @param input the shortcut input
 * @param pageToken the page's token
 */
export function reactionsPageRequest(
  input: ShortcutInput<ReactionsValues>,
  pageToken?: string,
): ApiRequest {
  const { emoji } = input.values;
  const limit = input.values["page-all"] ? MAX_REACTION_PAGE : input.values.limit;
  return {
    method: "GET",
    path: messagePath(input, "/reactions"),
    query: {
      reaction_type: emoji === undefined ? undefined : emojiOf(emoji, "--emoji"),
      user_id_type: "open_id",
      page_size: Math.min(Math.max(1, limit), MAX_REACTION_PAGE),
      page_token: pageToken,
    },
    scopes: READ,
  };
}

/** `im +reactions`. */
export const reactions = defineShortcut({
  service: "im",
  verb: "+reactions",
  description: "List the emoji reactions on a message: who reacted with what, and when",
  examples: [
    "hark im +reactions --message-id om_123",
    "hark im +reactions --message-id om_123 --emoji THUMBSUP --page-all --json --as bot",
  ],
  identities: ["user", "bot"],
  scopes: { user: READ, bot: READ, alternatives: READ_ALTERNATIVES },
  effect: "read",
  params: LIST_PARAMS,
  validate(input) {
    reactionsPageRequest(input, startToken(input.values["page-token"]));
    pagingOptions(input, "reactions");
  },
  requests: (input) => [reactionsPageRequest(input, startToken(input.values["page-token"]))],
  stream(input, client) {
    return resumablePages(
      async (pageToken) => {
        const page = await client.request<unknown>(reactionsPageRequest(input, pageToken));
        return {
          items: objectsField(page, "items").map(reactionRow),
          hasMore: booleanField(page, "has_more") === true,
          pageToken: stringField(page, "page_token"),
        };
      },
      pagingOptions(input, "reactions"),
      startToken(input.values["page-token"]),
      input.warn,
    );
  },
  columns: COLUMNS,
});

const ADD_PARAMS = {
  "message-id": MESSAGE_PARAM,
  emoji: param.string({
    description: "the emoji type: THUMBSUP, SMILE, OK, DONE, OnIt, LGTM… (Lark's names)",
    required: true,
    valueName: "<type>",
  }),
};

/**
 * The add request.
 *
 * @param input the shortcut input
 */
export function addReactionRequest(input: ShortcutInput<ValuesOf<typeof ADD_PARAMS>>): ApiRequest {
  return {
    method: "POST",
    path: messagePath(input, "/reactions"),
    body: { reaction_type: { emoji_type: emojiOf(input.values.emoji, "--emoji") } },
    scopes: WRITE,
  };
}

/** `im +reaction-add`. */
export const reactionAdd = defineShortcut({
  service: "im",
  verb: "+reaction-add",
  description: "React to a message with an emoji",
  examples: [
    "hark im +reaction-add --message-id om_123 --emoji THUMBSUP",
    "hark im +reaction-add --message-id om_123 --emoji DONE --as bot",
  ],
  identities: ["user", "bot"],
  scopes: { user: WRITE, bot: WRITE, alternatives: WRITE_ALTERNATIVES },
  effect: "write",
  params: ADD_PARAMS,
  validate: (input) => void addReactionRequest(input),
  requests: (input) => [addReactionRequest(input)],
  run: (input, client) => client.request<unknown>(addReactionRequest(input)),
  output: reactionRow,
  columns: COLUMNS,
});

const REMOVE_PARAMS = {
  "message-id": MESSAGE_PARAM,
  "reaction-id": param.string({
    description: "the reaction to take back (one you added; +reactions lists the ids)",
    required: true,
    valueName: "<id>",
  }),
};

/**
 * The remove request.
 *
 * @param input the shortcut input
 */
export function removeReactionRequest(
  input: ShortcutInput<ValuesOf<typeof REMOVE_PARAMS>>,
): ApiRequest {
  const id = checkId(input.values["reaction-id"], "--reaction-id", {
    noun: "reaction id",
    find: "hark im +reactions --message-id <om_…>",
  });
  return {
    method: "DELETE",
    path: messagePath(input, `/reactions/${encodeURIComponent(id)}`),
    scopes: WRITE,
  };
}

/** `im +reaction-remove`. */
export const reactionRemove = defineShortcut({
  service: "im",
  verb: "+reaction-remove",
  description: "Take back a reaction you added to a message",
  examples: [
    "hark im +reaction-remove --message-id om_123 --reaction-id ZCaCIjUBVVWSrm5L-3ZTw",
  ],
  identities: ["user", "bot"],
  scopes: { user: WRITE, bot: WRITE, alternatives: WRITE_ALTERNATIVES },
  effect: "delete",
  params: REMOVE_PARAMS,
  validate: (input) => void removeReactionRequest(input),
  requests: (input) => [removeReactionRequest(input)],
  run: (input, client) => client.request<unknown>(removeReactionRequest(input)),
  output: reactionRow,
  columns: COLUMNS,
});
