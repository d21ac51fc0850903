/**
 * The people of a chat named as an attendee (`oc_…`), for searches that read each person's
 * free/busy (`+find-time`): Lark's chat member list,
 * `GET /open-apis/im/v1/chats/{chat_id}/members?member_id_type=open_id` (users only; bots are
 * left out), page by page.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { booleanField, objectsField, stringField } from "../../json/fields.ts";
import type { ApiCaller } from "../definition.ts";
import { followPages } from "../paging.ts";
import { MAX_ID_LENGTH } from "../contact/ids.ts";
import { hasSpaceControlOrFormat } from "../../text_classes.ts";

/** The scope of the member list (lark-cli `skills/lark-im/SKILL.md`: chat.members.get). */
export const CHAT_MEMBERS_READ = "im:chat.members:read";
/** Lark's broader scopes that also grant the member list. */
export const CHAT_MEMBERS_ALTERNATIVES = {
  [CHAT_MEMBERS_READ]: ["im:chat:readonly", "im:chat"],
};
/** The largest page of the member list. */
const PAGE = 100;

/**
 * The request of one page of a chat's members.
 *
 * @param chatId the chat, `oc_…`
 * @param pageToken the page's token
 */
export function chatMembersRequest(chatId: string, pageToken?: string): ApiRequest {
  return {
    method: "GET",
    path: `/open-apis/im/v1/chats/${encodeURIComponent(chatId)}/members`,
    query: { member_id_type: "open_id", page_size: PAGE, page_token: pageToken },
    scopes: [CHAT_MEMBERS_READ],
  };
}

/**
 * The open ids of a chat's members, at most `most` of them; an id that is not a plausible open
 * id (empty, spaced, control characters, too long) is left out.
 *
 * @param client the API client
 * @param chatId the chat
 * @param most the most people the search takes
 * @throws {ValidationError} naming `--attendees` when the chat has more than `most` members
 */
export async function chatMemberIds(
  client: Pick<ApiCaller, "request">,
  chatId: string,
  most: number,
): Promise<string[]> {
  const ids: string[] = [];
  const pages = followPages(async (pageToken) => {
    const page = await client.request(chatMembersRequest(chatId, pageToken));
    return {
      items: objectsField(page, "items").flatMap((item) => {
        const id = stringField(item, "member_id");
        const plausible = id !== undefined && id.startsWith("ou_") &&
          id.length <= MAX_ID_LENGTH && !hasSpaceControlOrFormat(id);
        return plausible ? [id] : [];
      }),
      hasMore: booleanField(page, "has_more") === true,
      pageToken: stringField(page, "page_token"),
    };
  }, { limit: most + 1, maxPages: Math.ceil((most + 1) / PAGE) + 1 });
  for await (const batch of pages) ids.push(...batch);
  if (ids.length > most) {
    throw new ValidationError(
      `Too many people in chat "${chatId}" for --attendees: more than ${most}`,
      { param: "--attendees", suggestion: "Name the people who must be free instead" },
    );
  }
  return ids;
}
