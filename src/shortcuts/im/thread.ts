/**
 * `hark im +thread`: the messages of a thread, its root first. Given a message id, the thread is
 * the one the message starts or belongs to (looked up first); given a thread id, it is read at
 * once.
 *
 * @module
 */

import { ApiError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { type ApiCaller, defineShortcut, type ShortcutInput } from "../definition.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { type IdKind, idParam, MESSAGE_ID } from "../contact/ids.ts";
import { membershipErrors } from "./membership.ts";
import {
  type Container,
  listRequest,
  messageColumns,
  type MessageItem,
  READ_SCOPES,
  readMessages,
  readScopes,
} from "./message_rows.ts";
import { ORDERS } from "./messages.ts";

/** A thread id: `omt_…`. */
export const THREAD_ID: IdKind = {
  noun: "thread id",
  prefixes: ["omt_"],
  find: "hark im +messages --chat-id <oc_…> (the THREAD ID column)",
};

/**
 * One message by id (`GET /open-apis/im/v1/messages/{message_id}`).
 *
 * @param input the shortcut input (identity)
 * @param messageId the message
 */
export function getMessageRequest(input: ShortcutInput, messageId: string): ApiRequest {
  return {
    method: "GET",
    path: `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}`,
    query: { card_msg_content_type: "raw_card_content" },
    scopes: readScopes(input),
  };
}

/**
 * Exactly one of `--message-id` and `--thread-id`.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flags when none or both are given, or an id is malformed
 */
export function threadTarget(input: ShortcutInput): { messageId?: string; threadId?: string } {
  const messageId = idParam(input, "message-id", MESSAGE_ID);
  const threadId = idParam(input, "thread-id", THREAD_ID);
  if ((messageId === undefined) === (threadId === undefined)) {
    throw new ValidationError(
      messageId === undefined
        ? "Missing thread: give --message-id or --thread-id"
        : "Conflicting flags: --message-id, --thread-id; give exactly one",
      { param: messageId === undefined ? "--message-id" : "--thread-id" },
    );
  }
  return { messageId, threadId };
}

function container(input: ShortcutInput, threadId: string): Container {
  return { type: "thread", id: threadId, desc: input.values.order === "desc" };
}

async function threadOf(
  input: ShortcutInput,
  client: ApiCaller,
  messageId: string,
): Promise<string> {
  const data = await client.request<{ items?: MessageItem[] }>(
    getMessageRequest(input, messageId),
  );
  const threadId = data?.items?.[0]?.thread_id;
  if (!threadId) {
    throw new ApiError(`Message "${messageId}" is not in a thread`, {
      type: "not_found",
      suggestion: `Start one with im +reply --message-id ${messageId} --in-thread, or read the ` +
        "chat's messages with im +messages",
    });
  }
  return threadId;
}

async function* threadMessages(input: ShortcutInput, client: ApiCaller) {
  const { messageId, threadId } = threadTarget(input);
  const id = threadId ?? await threadOf(input, client, messageId!);
  yield* readMessages(input, client, container(input, id));
}

/** `im +thread`. */
export const thread = defineShortcut<never>({
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
  params: [
    {
      name: "message-id",
      type: "string",
      description: "a message that starts or is in the thread",
      valueName: "<om_id>",
    },
    { name: "thread-id", type: "string", description: "the thread", valueName: "<omt_id>" },
    {
      name: "order",
      type: "enum",
      description: "asc lists the thread as it was written",
      allowed: ORDERS,
      default: "asc",
    },
    ...pagingParams(50, "messages"),
  ],
  validate(input) {
    threadTarget(input);
    pagingOptions(input, "messages");
  },
  requests(input) {
    const { messageId, threadId } = threadTarget(input);
    return messageId === undefined
      ? [listRequest(input, container(input, threadId!))]
      : [getMessageRequest(input, messageId), listRequest(input, container(input, "<thread_id>"))];
  },
  stream: (input, client) => membershipErrors(input, threadMessages(input, client)),
  columns: messageColumns,
});
