/**
 * `hark im +messages`: a chat's messages in a time window, newest first by default, each with
 * its readable text and its sender's name; listed page by page, so a chat of any length streams.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { resolveTimeInput, type TimeInput } from "../../time/mod.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { CHAT_ID, idParam } from "../contact/ids.ts";
import { membershipErrors } from "./membership.ts";
import {
  type Container,
  listRequest,
  messageColumns,
  READ_SCOPES,
  readMessages,
} from "./message_rows.ts";

/** `--order`'s values. */
export const ORDERS = ["asc", "desc"] as const;

/**
 * The window of `--start` and `--end` in Unix seconds, both inclusive as Lark reads them: a
 * date-only `--start` is the start of that day, a date-only `--end` its last second; either may
 * be left out.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--end` when it is not after `--start`
 */
export function windowOf(input: ShortcutInput): { startTime?: number; endTime?: number } {
  const start = input.values.start as TimeInput | undefined;
  const end = input.values.end as TimeInput | undefined;
  const startMs = start && resolveTimeInput(start, "start", input.timeZone);
  const endMs = end && resolveTimeInput(end, "end", input.timeZone);
  if (startMs !== undefined && endMs !== undefined && endMs <= startMs) {
    throw new ValidationError(
      `Invalid value ${JSON.stringify(end!.text)} for --end: it is not after --start ` +
        JSON.stringify(start!.text),
      { param: "--end", suggestion: "Give an --end later than --start" },
    );
  }
  return {
    startTime: startMs === undefined ? undefined : Math.floor(startMs / 1000),
    // A day's end is exclusive (the next midnight): its last second is the one before.
    endTime: endMs === undefined
      ? undefined
      : Math.floor((end!.kind === "date" ? endMs - 1 : endMs) / 1000),
  };
}

function containerOf(input: ShortcutInput): Container {
  return {
    type: "chat",
    id: idParam(input, "chat-id", CHAT_ID)!,
    ...windowOf(input),
    desc: input.values.order !== "asc",
  };
}

/** `im +messages`. */
export const messages = defineShortcut<never>({
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
  params: [
    {
      name: "chat-id",
      type: "string",
      description: "the chat to read",
      required: true,
      valueName: "<oc_id>",
    },
    { name: "start", type: "datetime", description: "the earliest messages to list" },
    {
      name: "end",
      type: "datetime",
      description: "the latest messages to list (a date: all of it)",
    },
    {
      name: "order",
      type: "enum",
      description: "desc lists the newest first, so --limit gives the last messages",
      allowed: ORDERS,
      default: "desc",
    },
    ...pagingParams(20, "messages"),
  ],
  validate(input) {
    containerOf(input);
    pagingOptions(input, "messages");
  },
  requests: (input) => [listRequest(input, containerOf(input))],
  stream: (input, client) =>
    membershipErrors(input, readMessages(input, client, containerOf(input)), {
      chatId: idParam(input, "chat-id", CHAT_ID),
    }),
  columns: messageColumns,
});
