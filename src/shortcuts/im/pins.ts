/**
 * Pinned messages: `+pins` lists a chat's pins, `+pin` pins a message, `+unpin` takes the pin
 * off (the message stays). Endpoints: `GET`, `POST /open-apis/im/v1/pins` and `DELETE
 * /open-apis/im/v1/pins/{message_id}`; either identity (Lark's im-v1 pin docs). Pinning a
 * pinned message answers the pin there is, so both writes are safe to repeat.
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { booleanField, objectField, objectsField, stringField } from "../../json/fields.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { CHAT_ID, checkId, MESSAGE_ID } from "../contact/ids.ts";
import { windowOf } from "./messages.ts";
import { MESSAGE_PARAM } from "./reactions.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "./resume.ts";

/** The largest page of pins Lark returns. */
export const MAX_PIN_PAGE = 50;

/** lark-cli `skills/lark-im/SKILL.md`: pins.list; Lark's doc adds the broad message scopes. */
const READ = ["im:message.pins:read"];
/** lark-cli: pins.create and delete. */
const WRITE = ["im:message.pins:write_only"];
const READ_ALTERNATIVES = { "im:message.pins:read": ["im:message:readonly", "im:message"] };
const WRITE_ALTERNATIVES = { "im:message.pins:write_only": ["im:message"] };

/**
 * One pin as a row.
 *
 * @param pin a pin as Lark returns it
 */
export function pinRow(pin: unknown): Record<string, unknown> {
  const time = stringField(pin, "create_time");
  return {
    message_id: stringField(pin, "message_id") ?? "",
    chat_id: stringField(pin, "chat_id") ?? "",
    operator_id: stringField(pin, "operator_id") ?? "",
    operator_id_type: stringField(pin, "operator_id_type") ?? "",
    create_time: time !== undefined && /^\d{1,16}$/.test(time)
      ? new Date(Number(time)).toISOString()
      : "",
  };
}

const COLUMNS = [
  { header: "MESSAGE ID", value: "message_id", kind: "id" as const, priority: 5 },
  { header: "PINNED BY", value: "operator_id", kind: "id" as const, priority: 3 },
  { header: "PINNED AT", value: "create_time", priority: 4 },
  { header: "CHAT ID", value: "chat_id", kind: "id" as const, priority: 2 },
];

const LIST_PARAMS = {
  "chat-id": param.string({ description: "the chat (oc_…)", required: true }),
  start: param.datetime({ description: "only pins made at or after this time" }),
  end: param.datetime({ description: "only pins made at or before this time (a date: all of it)" }),
  "page-token": PAGE_TOKEN_PARAM,
  ...pagingParams(20, "pins"),
};

/** The values of `+pins`. */
export type PinsValues = ValuesOf<typeof LIST_PARAMS>;

/**
 * The request of one page of pins (Lark takes the window in milliseconds).
 *
 * @param input the shortcut input
 * @param pageToken the page's token
 */
export function pinsPageRequest(input: ShortcutInput<PinsValues>, pageToken?: string): ApiRequest {
  const chat = checkId(input.values["chat-id"], "--chat-id", CHAT_ID);
  const { startTime, endTime } = windowOf(input);
  const limit = input.values["page-all"] ? MAX_PIN_PAGE : input.values.limit;
  return {
    method: "GET",
    path: "/open-apis/im/v1/pins",
    query: {
      chat_id: chat,
      start_time: startTime === undefined ? undefined : String(startTime * 1000),
      end_time: endTime === undefined ? undefined : String(endTime * 1000 + 999),
      page_size: Math.min(Math.max(1, limit), MAX_PIN_PAGE),
      page_token: pageToken,
    },
    scopes: READ,
  };
}

/** `im +pins`. */
export const pins = defineShortcut({
  service: "im",
  verb: "+pins",
  description: "List a chat's pinned messages, newest pin first",
  examples: [
    "hark im +pins --chat-id oc_123",
    "hark im +pins --chat-id oc_123 --start 2026-11-01 --page-all --json --as bot",
  ],
  identities: ["user", "bot"],
  scopes: { user: READ, bot: READ, alternatives: READ_ALTERNATIVES },
  effect: "read",
  params: LIST_PARAMS,
  validate(input) {
    pinsPageRequest(input, startToken(input.values["page-token"]));
    pagingOptions(input, "pins");
  },
  requests: (input) => [pinsPageRequest(input, startToken(input.values["page-token"]))],
  stream(input, client) {
    return resumablePages(
      async (pageToken) => {
        const page = await client.request<unknown>(pinsPageRequest(input, pageToken));
        return {
          items: objectsField(page, "items").map(pinRow),
          hasMore: booleanField(page, "has_more") === true,
          pageToken: stringField(page, "page_token"),
        };
      },
      pagingOptions(input, "pins"),
      startToken(input.values["page-token"]),
      input.warn,
    );
  },
  columns: COLUMNS,
});

const ONE_PARAMS = { "message-id": MESSAGE_PARAM };
type OneValues = ValuesOf<typeof ONE_PARAMS>;

function messageIdOf(input: ShortcutInput<OneValues>): string {
  return checkId(input.values["message-id"], "--message-id", MESSAGE_ID);
}

/**
 * The pin request.
 *
 * @param input the shortcut input
 */
export function pinRequest(input: ShortcutInput<OneValues>): ApiRequest {
  return {
    method: "POST",
    path: "/open-apis/im/v1/pins",
    body: { message_id: messageIdOf(input) },
    scopes: WRITE,
  };
}

/**
 * The unpin request.
 *
 * @param input the shortcut input
 */
export function unpinRequest(input: ShortcutInput<OneValues>): ApiRequest {
  return {
    method: "DELETE",
    path: `/open-apis/im/v1/pins/${encodeURIComponent(messageIdOf(input))}`,
    scopes: WRITE,
  };
}

/** `im +pin`. */
export const pin = defineShortcut({
  service: "im",
  verb: "+pin",
  description: "Pin a message in its chat (pinning a pinned message changes nothing)",
  examples: ["hark im +pin --message-id om_123", "hark im +pin --message-id om_123 --as bot"],
  identities: ["user", "bot"],
  scopes: { user: WRITE, bot: WRITE, alternatives: WRITE_ALTERNATIVES },
  effect: "write",
  idempotent: true,
  params: ONE_PARAMS,
  validate: (input) => void pinRequest(input),
  requests: (input) => [pinRequest(input)],
  run: (input, client) => client.request<unknown>(pinRequest(input)),
  output: (answer) => pinRow(objectField(answer, "pin")),
  columns: COLUMNS,
});

/** `im +unpin`. */
export const unpin = defineShortcut({
  service: "im",
  verb: "+unpin",
  description: "Take a message's pin off (the message stays in the chat)",
  examples: ["hark im +unpin --message-id om_123"],
  identities: ["user", "bot"],
  scopes: { user: WRITE, bot: WRITE, alternatives: WRITE_ALTERNATIVES },
  effect: "delete",
  idempotent: true,
  params: ONE_PARAMS,
  validate: (input) => void unpinRequest(input),
  requests: (input) => [unpinRequest(input)],
  async run(input, client) {
    await client.request<unknown>(unpinRequest(input));
    return { message_id: messageIdOf(input), pinned: false };
  },
  columns: [
    { header: "MESSAGE ID", value: "message_id", kind: "id", priority: 5 },
    { header: "PINNED", value: "pinned", priority: 4 },
  ],
});
