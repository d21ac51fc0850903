/**
 * The members of a group chat: `+chat-members` lists them (users only: Lark leaves bots out),
 * `+chat-members-add` adds people, `+chat-members-remove` removes them (asking first: a removed
 * person loses the chat and its history until someone adds them back).
 * Endpoints: `GET`, `POST`, `DELETE /open-apis/im/v1/chats/{chat_id}/members`.
 *
 * @module
 */

import { CancelledError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { booleanField, objectsField, stringField, stringsField } from "../../json/fields.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { CHAT_ID, checkId } from "../contact/ids.ts";
import { membersOf } from "./chat_create.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "./resume.ts";

/** The largest page of the member list. */
export const MAX_MEMBER_PAGE = 100;
/** The most ids one add or remove takes. */
export const MAX_MEMBER_IDS = 50;

/** lark-cli `skills/lark-im/SKILL.md`: chat.members.get; Lark's doc adds the broad ones. */
const READ = ["im:chat.members:read"];
/** lark-cli: chat.members.create and delete. */
const WRITE = ["im:chat.members:write_only"];
const READ_ALTERNATIVES = { "im:chat.members:read": ["im:chat:readonly", "im:chat"] };
const WRITE_ALTERNATIVES = { "im:chat.members:write_only": ["im:chat"] };

const CHAT_PARAM = param.string({ description: "the group chat (oc_…)", required: true });

function chatPath(input: ShortcutInput<{ readonly "chat-id": string }>): string {
  const id = checkId(input.values["chat-id"], "--chat-id", CHAT_ID);
  return `/open-apis/im/v1/chats/${encodeURIComponent(id)}/members`;
}

const LIST_PARAMS = {
  "chat-id": CHAT_PARAM,
  "page-token": PAGE_TOKEN_PARAM,
  ...pagingParams(100, "members"),
};

/** The values of `+chat-members`. */
export type ChatMembersValues = ValuesOf<typeof LIST_PARAMS>;

/**
 * The request of one page of members.
 *
 * @param input the shortcut input
 * @param pageToken the page's token
 */
export function membersPageRequest(
  input: ShortcutInput<ChatMembersValues>,
  pageToken?: string,
): ApiRequest {
  const limit = input.values["page-all"] ? MAX_MEMBER_PAGE : input.values.limit;
  return {
    method: "GET",
    path: chatPath(input),
    query: {
      member_id_type: "open_id",
      page_size: Math.min(Math.max(1, limit), MAX_MEMBER_PAGE),
      page_token: pageToken,
    },
    scopes: READ,
  };
}

/** `im +chat-members`. */
export const chatMembers = defineShortcut({
  service: "im",
  verb: "+chat-members",
  description: "List the people in a group chat",
  examples: [
    "hark im +chat-members --chat-id oc_123",
    "hark im +chat-members --chat-id oc_123 --page-all --json --as bot",
  ],
  identities: ["user", "bot"],
  scopes: { user: READ, bot: READ, alternatives: READ_ALTERNATIVES },
  effect: "read",
  params: LIST_PARAMS,
  validate(input) {
    chatPath(input);
    startToken(input.values["page-token"]);
    pagingOptions(input, "members");
  },
  requests: (input) => [membersPageRequest(input, startToken(input.values["page-token"]))],
  stream(input, client) {
    return resumablePages(
      async (pageToken) => {
        const page = await client.request<unknown>(membersPageRequest(input, pageToken));
        return {
          items: objectsField(page, "items"),
          hasMore: booleanField(page, "has_more") === true,
          pageToken: stringField(page, "page_token"),
        };
      },
      pagingOptions(input, "members"),
      startToken(input.values["page-token"]),
      input.warn,
    );
  },
  columns: [
    { header: "NAME", value: "name", priority: 4 },
    { header: "MEMBER ID", value: "member_id", kind: "id", priority: 5 },
  ],
});

const CHANGE_PARAMS = {
  "chat-id": CHAT_PARAM,
  members: param.string({
    description: `people, separated by commas: open ids (ou_…), union ids (on_…) or user ids, ` +
      `one kind, at most ${MAX_MEMBER_IDS}`,
    valueName: "<id,…>",
    required: true,
  }),
};

/** The values of `+chat-members-add`. */
export type MemberChangeValues = ValuesOf<typeof CHANGE_PARAMS>;

/**
 * The add or remove request (Lark takes one id kind per request).
 *
 * @param input the shortcut input
 * @param method `POST` adds, `DELETE` removes
 * @throws {ValidationError} naming `--chat-id` or `--members` for bad ids
 */
export function memberRequest(
  input: ShortcutInput<MemberChangeValues>,
  method: "POST" | "DELETE",
): ApiRequest {
  const path = chatPath(input);
  const { ids, type } = membersOf(input);
  return {
    method,
    path,
    // succeed_type 0: one unusable id fails the whole add, so nothing is half done.
    query: { member_id_type: type, ...(method === "POST" ? { succeed_type: 0 } : {}) },
    body: { id_list: ids },
    scopes: WRITE,
  };
}

/**
 * One row per id asked for, with what Lark said of it: `added` or `removed`, `refused` (not
 * found, not visible, not in the chat), `pending_approval` (the chat needs an approval).
 *
 * @param answer the answer's `data`
 * @param input the shortcut input
 * @param done the status of an id Lark took
 */
export function memberRows(
  answer: unknown,
  input: ShortcutInput<MemberChangeValues>,
  done: "added" | "removed",
): Record<string, unknown>[] {
  const refused = new Set([
    ...stringsField(answer, "invalid_id_list"),
    ...stringsField(answer, "not_existed_id_list"),
  ]);
  const pending = new Set(stringsField(answer, "pending_approval_id_list"));
  const rows = membersOf(input).ids.map((id) => ({
    member_id: id,
    status: refused.has(id) ? "refused" : pending.has(id) ? "pending_approval" : done,
  }));
  const no = rows.filter((r) => r.status === "refused").map((r) => r.member_id);
  if (no.length > 0) {
    input.warn(`Lark refused ${no.join(", ")}: not found, not visible to you, or not in the chat`);
  }
  return rows;
}

const CHANGE_COLUMNS = [
  { header: "MEMBER ID", value: "member_id", kind: "id" as const, priority: 5 },
  { header: "STATUS", value: "status", priority: 4 },
];

/** `im +chat-members-add`. */
export const chatMembersAdd = defineShortcut({
  service: "im",
  verb: "+chat-members-add",
  description: "Add people to a group chat",
  examples: [
    "hark im +chat-members-add --chat-id oc_123 --members ou_456,ou_789",
    "hark im +chat-members-add --chat-id oc_123 --members on_456 --as bot",
  ],
  identities: ["user", "bot"],
  scopes: { user: WRITE, bot: WRITE, alternatives: WRITE_ALTERNATIVES },
  effect: "write",
  // Adding someone already in the chat changes nothing.
  idempotent: true,
  params: CHANGE_PARAMS,
  validate: (input) => void memberRequest(input, "POST"),
  requests: (input) => [memberRequest(input, "POST")],
  run: (input, client) => client.request<unknown>(memberRequest(input, "POST")),
  output: (answer, input) => memberRows(answer, input, "added"),
  columns: CHANGE_COLUMNS,
});

/** `im +chat-members-remove`. */
export const chatMembersRemove = defineShortcut({
  service: "im",
  verb: "+chat-members-remove",
  description: "Remove people from a group chat (asks first)",
  examples: [
    "hark im +chat-members-remove --chat-id oc_123 --members ou_456",
    "hark im +chat-members-remove --chat-id oc_123 --members ou_456 --yes --as bot",
  ],
  identities: ["user", "bot"],
  scopes: { user: WRITE, bot: WRITE, alternatives: WRITE_ALTERNATIVES },
  effect: "delete",
  idempotent: true,
  params: { ...CHANGE_PARAMS, yes: param.bool({ description: "remove without asking" }) },
  validate: (input) => void memberRequest(input, "DELETE"),
  requests: (input) => [memberRequest(input, "DELETE")],
  async run(input, client) {
    const request = memberRequest(input, "DELETE");
    if (input.values.yes !== true) {
      const who = membersOf(input).ids.join(", ");
      const chat = input.values["chat-id"].trim();
      const ok = await input.confirm(`Remove ${who} from chat ${chat}?`, "--yes");
      if (!ok) throw new CancelledError("Cancelled: nobody was removed");
    }
    return await client.request<unknown>(request);
  },
  output: (answer, input) => memberRows(answer, input, "removed"),
  columns: CHANGE_COLUMNS,
});
