/**
 * `hark im +messages`: a chat's messages in a time window, newest first by default, each with
 * its readable text and its sender's name; listed page by page, so a chat of any length streams.
 * At a terminal they are drawn as a conversation, oldest to newest (`conversation.ts`).
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { resolveTimeInput } from "../../time/mod.ts";
import { type ApiCaller, defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { CHAT_ID, checkId } from "../contact/ids.ts";
import { terminalWidth } from "../../output/mod.ts";
import { drawConversation } from "./conversation.ts";
import { membershipErrors } from "./membership.ts";
import { chatterOf, p2pChatId, p2pRequest } from "./p2p_chat.ts";
import { PAGE_TOKEN_PARAM, startToken } from "./resume.ts";
import {
  type Container,
  listRequest,
  messageColumns,
  READ_SCOPES,
  readMessages,
} from "./message_rows.ts";

/** `--order`'s values. */
export const ORDERS = ["asc", "desc"] as const;

const PARAMS = {
  "chat-id": param.string({ description: "the chat to read", valueName: "<oc_id>" }),
  "user-id": param.string({
    description: "read your one-to-one chat with this person instead (ou_…, on_… or a user id)",
    valueName: "<id>",
  }),
  start: param.datetime({ description: "the earliest messages to list" }),
  end: param.datetime({ description: "the latest messages to list (a date: all of it)" }),
  order: param.enumOf(ORDERS, {
    description: "desc lists the newest first, so --limit gives the last messages",
    default: "desc",
  }),
  "page-token": PAGE_TOKEN_PARAM,
  ...pagingParams(20, "messages"),
};

/** The values of `+messages`. */
export type MessagesValues = ValuesOf<typeof PARAMS>;

/** The values of `--start` and `--end`, each possibly absent. */
export type WindowValues = Partial<Pick<MessagesValues, "start" | "end">>;

/**
 * The window of `--start` and `--end` in Unix seconds, both inclusive as Lark reads them: a
 * date-only `--start` is the start of that day, a date-only `--end` its last second; either may
 * be left out.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`
 */
export function windowOf(
  input: ShortcutInput<WindowValues>,
): { startTime?: number; endTime?: number } {
  const { start, end } = input.values;
  const from = start && { text: start.text, ms: resolveTimeInput(start, "start", input.timeZone) };
  const to = end && {
    text: end.text,
    ms: resolveTimeInput(end, "end", input.timeZone),
    wholeDay: end.kind === "date",
  };
  if (from && to && to.ms <= from.ms) {
    throw new ValidationError(
      `Invalid value ${JSON.stringify(to.text)} for --end: it is not after --start ` +
        JSON.stringify(from.text),
      { param: "--end", suggestion: "Give an --end later than --start" },
    );
  }
  return {
    startTime: from && Math.floor(from.ms / 1000),
    // A day's end is exclusive (the next midnight): its last second is the one before.
    endTime: to && Math.floor((to.wholeDay ? to.ms - 1 : to.ms) / 1000),
  };
}

/** Where `+messages` reads: exactly one is given. */
const WHERE = ["chat-id", "user-id"] as const;

function containerOf(input: ShortcutInput<MessagesValues>, chatId?: string): Container {
  const { "chat-id": chat, "user-id": user } = input.values;
  if ((chat === undefined) === (user === undefined)) {
    throw new ValidationError(
      chat === undefined
        ? "Missing chat: give --chat-id, or --user-id for your one-to-one chat"
        : "Conflicting flags: --chat-id, --user-id; give exactly one",
      { param: chat === undefined ? "--chat-id" : "--user-id" },
    );
  }
  if (user !== undefined) chatterOf(input);
  return {
    type: "chat",
    id: chatId ??
      (chat === undefined
        ? "<chat_id of the one-to-one chat>"
        : checkId(chat, "--chat-id", CHAT_ID)),
    ...windowOf(input),
    desc: input.values.order !== "asc",
    pageToken: startToken(input.values["page-token"]),
  };
}

async function* messagesOf(input: ShortcutInput<MessagesValues>, client: ApiCaller) {
  const user = input.values["user-id"];
  const chatId = user === undefined ? undefined : await p2pChatId(client, chatterOf(input));
  yield* readMessages(input, client, containerOf(input, chatId));
}

/** `im +messages`. */
export const messages = defineShortcut({
  service: "im",
  verb: "+messages",
  description: "List a chat's messages, newest first, with their senders and readable text",
  examples: [
    "hark im +messages --chat-id oc_123 --limit 10",
    "hark im +messages --user-id ou_456 --limit 10",
    "hark im +messages --chat-id oc_123 --start 2026-11-01 --end 2026-11-30 --order asc",
    "hark im +messages --chat-id oc_123 --page-all --format ndjson > chat.ndjson",
    "hark im +messages --chat-id oc_123 --as bot --json",
  ],
  identities: ["user", "bot"],
  scopes: READ_SCOPES,
  oneOf: [WHERE],
  effect: "read",
  params: PARAMS,
  validate(input) {
    containerOf(input);
    pagingOptions(input, "messages");
  },
  requests: (input) => [
    ...(input.values["user-id"] === undefined ? [] : [p2pRequest(chatterOf(input))]),
    listRequest(input, containerOf(input)),
  ],
  stream: (input, client) => {
    const chat = input.values["chat-id"];
    const where = chat === undefined ? {} : { chatId: checkId(chat, "--chat-id", CHAT_ID) };
    return membershipErrors(input, messagesOf(input, client), where);
  },
  // At a terminal, a conversation: oldest to newest whatever --order read, ids kept, text whole.
  render: (input) => (rows) =>
    drawConversation(Array.isArray(rows) ? rows : [], {
      timeZone: input.timeZone,
      width: terminalWidth(input.ctx),
    }),
  columns: messageColumns,
});
