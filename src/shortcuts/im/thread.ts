/**
 * `hark im +thread`: the messages of a thread, its root first. Given a message id, the thread is
 * the one the message starts or belongs to (looked up first); given a thread id, it is read at
 * once.
 *
 * @module
 */

import { ApiError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectsField, stringField } from "../../json/fields.ts";
import { type ApiCaller, defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { type IdKind, idParam, MESSAGE_ID } from "../contact/ids.ts";
import { membershipErrors } from "./membership.ts";
import {
  type Container,
  listRequest,
  messageColumns,
  READ_SCOPES,
  readMessages,
  readScopes,
} from "./message_rows.ts";
import { PAGE_TOKEN_PARAM, startToken } from "./resume.ts";
import { ORDERS } from "./messages.ts";

/** A thread id: `omt_…`. */
export const THREAD_ID: IdKind = {
  noun: "thread id",
  prefixes: ["omt_"],
  find: "hark im +messages --chat-id <oc_…> (the THREAD ID column)",
};

const PARAMS = {
  "message-id": param.string({
    description: "a message that starts or is in the thread",
    valueName: "<om_id>",
  }),
  "thread-id": param.string({ description: "the thread", valueName: "<omt_id>" }),
  order: param.enumOf(ORDERS, {
    description: "asc lists the thread as it was written",
    default: "asc",
  }),
  "page-token": PAGE_TOKEN_PARAM,
  ...pagingParams(50, "messages"),
};

/** The values of `+thread`. */
export type ThreadValues = ValuesOf<typeof PARAMS>;

/** What `+thread` reads: a message's thread (looked up first), or a thread. */
export type ThreadTarget =
  | { messageId: string; threadId?: undefined }
  | { messageId?: undefined; threadId: string };

/**
 * One message by id (`GET /open-apis/im/v1/messages/{message_id}`).
 *
 * @param input the shortcut input (identity)
 * @param messageId the message
 */
export function getMessageRequest(input: ShortcutInput<unknown>, messageId: string): ApiRequest {
  return {
    method: "GET",
    path: `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}`,
    query: { card_msg_content_type: "raw_card_content" },
    scopes: readScopes(input),
  };
}

/** Where the thread is named: exactly one is given. */
export const THREAD_TARGETS = ["message-id", "thread-id"] as const;

/**
 * Exactly one of `--message-id` and `--thread-id`.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flags when none or both are given, or an id is malformed
 */
export function threadTarget(
  input: ShortcutInput<Partial<Pick<ThreadValues, "message-id" | "thread-id">>>,
): ThreadTarget {
  const messageId = idParam(input, "message-id", MESSAGE_ID);
  const threadId = idParam(input, "thread-id", THREAD_ID);
  if (threadId === undefined && messageId !== undefined) return { messageId, threadId };
  if (messageId === undefined && threadId !== undefined) return { messageId, threadId };
  throw new ValidationError(
    messageId === undefined
      ? "Missing thread: give --message-id or --thread-id"
      : "Conflicting flags: --message-id, --thread-id; give exactly one",
    { param: messageId === undefined ? "--message-id" : "--thread-id" },
  );
}

function container(input: ShortcutInput<ThreadValues>, threadId: string): Container {
  return {
    type: "thread",
    id: threadId,
    desc: input.values.order === "desc",
    pageToken: startToken(input.values["page-token"]),
  };
}

async function threadOf(
  input: ShortcutInput<ThreadValues>,
  client: ApiCaller,
  messageId: string,
): Promise<string> {
  const data = await client.request<unknown>(getMessageRequest(input, messageId));
  const threadId = stringField(objectsField(data, "items")[0], "thread_id");
  if (!threadId) {
    throw new ApiError(`Message "${messageId}" is not in a thread`, {
      type: "not_found",
      suggestion: `Start one with im +reply --message-id ${messageId} --in-thread, or read the ` +
        "chat's messages with im +messages",
    });
  }
  return threadId;
}

async function* threadMessages(input: ShortcutInput<ThreadValues>, client: ApiCaller) {
  const target = threadTarget(input);
  const id = target.threadId ?? await threadOf(input, client, target.messageId);
  yield* readMessages(input, client, container(input, id));
}

/** `im +thread`. */
export const thread = defineShortcut({
  service: "im",
  verb: "+thread",
  description: "List the messages of a thread, its first message first",
  examples: [
    "hark im +thread --message-id om_123",
    "hark im +thread --thread-id omt_123 --page-all --json",
  ],
  identities: ["user", "bot"],
  scopes: READ_SCOPES,
  effect: "read",
  oneOf: [THREAD_TARGETS],
  params: PARAMS,
  validate(input) {
    threadTarget(input);
    startToken(input.values["page-token"]);
    pagingOptions(input, "messages");
  },
  requests(input) {
    const target = threadTarget(input);
    return target.threadId !== undefined
      ? [listRequest(input, container(input, target.threadId))]
      : [
        getMessageRequest(input, target.messageId),
        listRequest(input, container(input, "<thread_id>")),
      ];
  },
  stream: (input, client) => membershipErrors(input, threadMessages(input, client)),
  columns: messageColumns,
});
