/**
 * The one-to-one chat with a person, as `+messages --user-id` reads it: Lark lists messages by
 * chat id only, so the chat is looked up first (`POST /open-apis/im/v1/chat_p2p/batch_query`,
 * as lark-cli's `+chat-messages-list --user-id` does). A user token only: the chat is the
 * signed-in user's with that person.
 *
 * @module
 */

import { ApiError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { objectsField, stringField } from "../../json/fields.ts";
import type { ApiCaller, ShortcutInput } from "../definition.ts";
import { checkId, USER_ID, userIdTypeOf } from "../contact/ids.ts";

/** The scope of the lookup: reading one's one-to-one chats (lark-cli's shortcut asks it). */
const P2P_SCOPES = ["im:message.p2p_msg:get_as_user"];

/**
 * The person of `--user-id`, checked; user identity only.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--user-id` for a malformed id, `--as` for the bot
 */
export function chatterOf(input: ShortcutInput<{ readonly "user-id"?: string }>): string {
  const id = checkId(input.values["user-id"] ?? "", "--user-id", USER_ID);
  if (input.identity !== "user") {
    throw new ValidationError(
      "--user-id reads your one-to-one chat with that person, so it needs --as user",
      { param: "--as", suggestion: "Give the chat with --chat-id when acting as the bot" },
    );
  }
  return id;
}

/**
 * The lookup request.
 *
 * @param id the person
 */
export function p2pRequest(id: string): ApiRequest {
  return {
    method: "POST",
    path: "/open-apis/im/v1/chat_p2p/batch_query",
    query: { chatter_id_type: userIdTypeOf(id) },
    body: { chatter_ids: [id] },
    scopes: P2P_SCOPES,
  };
}

/**
 * The chat id of the one-to-one chat with a person.
 *
 * @param client the client
 * @param id the person
 * @throws {ApiError} `not_found` when there is no such chat yet
 */
export async function p2pChatId(client: ApiCaller, id: string): Promise<string> {
  const answer = await client.request<unknown>(p2pRequest(id));
  const chatId = objectsField(answer, "p2p_chats")
    .map((chat) => stringField(chat, "chat_id"))
    .find((chat) => chat !== undefined && /^oc_[A-Za-z0-9_-]{1,120}$/.test(chat));
  if (chatId === undefined) {
    throw new ApiError(`You have no one-to-one chat with ${id} yet`, {
      type: "not_found",
      suggestion: `Start one with: hark im +send --user-id ${id} --text …`,
    });
  }
  return chatId;
}
