/**
 * `hark im +messages`: a chat's messages in a time window, newest first by default, each with
 * its readable text and its sender's name; listed page by page, so a chat of any length streams.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { resolveTimeInput } from "../../time/mod.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { CHAT_ID, checkId } from "../contact/ids.ts";
import { membershipErrors } from "./membership.ts";
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
  "chat-id": param.string({
    description: "the chat to read",
    required: true,
    valueName: "<oc_id>",
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

function containerOf(input: ShortcutInput<MessagesValues>): Container {
  return {
    type: "chat",
    id: checkId(input.values["chat-id"], "--chat-id", CHAT_ID),
    ...windowOf(input),
    desc: input.values.order !== "asc",
    pageToken: startToken(input.values["page-token"]),
  };
}

/** `im +messages`. */
export const messages = defineShortcut({
  service: "im",
  verb: "+messages",
  description: "List a chat's messages, newest first, with their senders and readable text",
  examples: [
    "hark im +messages --chat-id oc_123 --limit 10",
    "hark im +messages --chat-id oc_123 --start 2026-11-01 --end 2026-11-30 --order asc",
    "hark im +messages --chat-id oc_123 --page-all --format ndjson > chat.ndjson",
    "hark im +messages --chat-id oc_123 --as bot --json",
  ],
  identities: ["user", "bot"],
  scopes: READ_SCOPES,
  effect: "read",
  params: PARAMS,
  validate(input) {
    containerOf(input);
    pagingOptions(input, "messages");
  },
  requests: (input) => [listRequest(input, containerOf(input))],
  stream: (input, client) =>
    membershipErrors(input, readMessages(input, client, containerOf(input)), {
      chatId: checkId(input.values["chat-id"], "--chat-id", CHAT_ID),
    }),
  columns: messageColumns,
});
