/**
 * What the app learns and does about a message it sent: `+message-read-users` lists who has read
 * it, `+urgent` buzzes people about it in Lark, by SMS or by phone call. Both are the app's
 * only (Lark takes a tenant token), for messages the app itself sent. Endpoints: `GET
 * /open-apis/im/v1/messages/{message_id}/read_users` (messages of the last 7 days) and `PATCH
 * …/urgent_app`, `…/urgent_sms`, `…/urgent_phone` (SMS and calls use the tenant's paid quota, so
 * those ask first).
 *
 * @module
 */

import { CancelledError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { booleanField, objectsField, stringField, stringsField } from "../../json/fields.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { pagingOptions, pagingParams } from "../paging.ts";
import { idListParam, USER_ID, type UserIdType, userIdTypeOf } from "../contact/ids.ts";
import { MESSAGE_PARAM, messagePath } from "./reactions.ts";
import { PAGE_TOKEN_PARAM, resumablePages, startToken } from "./resume.ts";

/** The largest page of readers Lark returns. */
export const MAX_READER_PAGE = 100;
/** The most people one urgent notification reaches (Lark's user_id_list). */
export const MAX_URGENT_USERS = 50;

/** Lark's read_users doc: any one of im:message:readonly, im:message, im:message:basic. */
const READ = ["im:message:readonly"];
/** Lark's urgent docs, per kind: any one of the pair. */
const URGENT_SCOPES = {
  app: "im:message.urgent",
  sms: "im:message.urgent:sms",
  phone: "im:message.urgent:phone",
} as const;
const KINDS = ["app", "sms", "phone"] as const;

const READERS_PARAMS = {
  "message-id": MESSAGE_PARAM,
  "page-token": PAGE_TOKEN_PARAM,
  ...pagingParams(20, "readers"),
};

/** The values of `+message-read-users`. */
export type ReadersValues = ValuesOf<typeof READERS_PARAMS>;

/**
 * The request of one page of readers.
 *
 * @param input the shortcut input
 * @param pageToken the page's token
 */
export function readersPageRequest(
  input: ShortcutInput<ReadersValues>,
  pageToken?: string,
): ApiRequest {
  const limit = input.values["page-all"] ? MAX_READER_PAGE : input.values.limit;
  return {
    method: "GET",
    path: messagePath(input, "/read_users"),
    query: {
      user_id_type: "open_id",
      page_size: Math.min(Math.max(1, limit), MAX_READER_PAGE),
      page_token: pageToken,
    },
    scopes: READ,
  };
}

function readerRow(item: unknown): Record<string, unknown> {
  const time = stringField(item, "timestamp");
  return {
    user_id: stringField(item, "user_id") ?? "",
    read_time: time !== undefined && /^\d{1,16}$/.test(time)
      ? new Date(Number(time)).toISOString()
      : "",
  };
}

/** `im +message-read-users`. */
export const messageReadUsers = defineShortcut({
  service: "im",
  verb: "+message-read-users",
  description: "List who has read a message the app sent in the last 7 days",
  examples: [
    "hark im +message-read-users --message-id om_123 --as bot",
    "hark im +message-read-users --message-id om_123 --page-all --json --as bot",
  ],
  identities: ["bot"],
  scopes: {
    bot: READ,
    alternatives: { "im:message:readonly": ["im:message", "im:message:basic"] },
  },
  effect: "read",
  params: READERS_PARAMS,
  validate(input) {
    readersPageRequest(input, startToken(input.values["page-token"]));
    pagingOptions(input, "readers");
  },
  requests: (input) => [readersPageRequest(input, startToken(input.values["page-token"]))],
  stream(input, client) {
    return resumablePages(
      async (pageToken) => {
        const page = await client.request<unknown>(readersPageRequest(input, pageToken));
        return {
          items: objectsField(page, "items").map(readerRow),
          hasMore: booleanField(page, "has_more") === true,
          pageToken: stringField(page, "page_token"),
        };
      },
      pagingOptions(input, "readers"),
      startToken(input.values["page-token"]),
      input.warn,
    );
  },
  columns: [
    { header: "USER ID", value: "user_id", kind: "id", priority: 5 },
    { header: "READ AT", value: "read_time", priority: 4 },
  ],
});

const URGENT_PARAMS = {
  "message-id": MESSAGE_PARAM,
  "user-ids": param.string({
    description: `who to notify, separated by commas: open ids (ou_…), union ids (on_…) or ` +
      `user ids, one kind, at most ${MAX_URGENT_USERS}; each must be in the message's chat`,
    valueName: "<id,…>",
    required: true,
  }),
  kind: param.enumOf(KINDS, {
    description: "app: a buzz in Lark; sms and phone also text or call (paid; asks first)",
    default: "app",
  }),
  yes: param.bool({ description: "send an SMS or phone notification without asking" }),
};

/** The values of `+urgent`. */
export type UrgentValues = ValuesOf<typeof URGENT_PARAMS>;

function usersOf(input: ShortcutInput<UrgentValues>): { ids: string[]; type: UserIdType } {
  const ids = idListParam(input, "user-ids", USER_ID, MAX_URGENT_USERS);
  const types = [...new Set(ids.map(userIdTypeOf))];
  if (types.length > 1) {
    throw new ValidationError(
      "Invalid value for --user-ids: it mixes kinds of id; Lark takes one kind per request",
      { param: "--user-ids", suggestion: "Give open ids (ou_…) only, say" },
    );
  }
  return { ids, type: types[0] ?? "open_id" };
}

/**
 * The urgent request of the chosen kind.
 *
 * @param input the shortcut input
 */
export function urgentRequest(input: ShortcutInput<UrgentValues>): ApiRequest {
  const path = messagePath(input, `/urgent_${input.values.kind}`);
  const { ids, type } = usersOf(input);
  return {
    method: "PATCH",
    path,
    query: { user_id_type: type },
    body: { user_id_list: ids },
    scopes: [URGENT_SCOPES[input.values.kind]],
  };
}

/** `im +urgent`. */
export const urgent = defineShortcut({
  service: "im",
  verb: "+urgent",
  description: "Buzz people about a message the app sent: in Lark, or by SMS or phone call",
  examples: [
    "hark im +urgent --message-id om_123 --user-ids ou_456,ou_789 --as bot",
    "hark im +urgent --message-id om_123 --user-ids ou_456 --kind phone --yes --as bot",
  ],
  identities: ["bot"],
  scopes: {
    bot: [URGENT_SCOPES.app],
    tenantCalls: {
      when: "--kind sms or phone",
      scopes: [URGENT_SCOPES.sms, URGENT_SCOPES.phone],
    },
  },
  effect: "write",
  params: URGENT_PARAMS,
  validate: (input) => void urgentRequest(input),
  requests: (input) => [urgentRequest(input)],
  async run(input, client) {
    const request = urgentRequest(input);
    const { kind } = input.values;
    if (kind !== "app" && input.values.yes !== true) {
      const how = kind === "sms" ? "a text message" : "a phone call";
      const question = `Notify ${usersOf(input).ids.join(", ")} by ${how}? It uses the ` +
        "tenant's paid urgent quota";
      const ok = await input.confirm(question, "--yes");
      if (!ok) throw new CancelledError("Cancelled: nobody was notified");
    }
    return await client.request<unknown>(request);
  },
  output(answer, input) {
    const refused = new Set(stringsField(answer, "invalid_user_id_list"));
    if (refused.size > 0) {
      input.warn(`Lark refused ${[...refused].join(", ")}: not found or not in the chat`);
    }
    return usersOf(input).ids.map((id) => ({
      user_id: id,
      kind: input.values.kind,
      status: refused.has(id) ? "refused" : "notified",
    }));
  },
  columns: [
    { header: "USER ID", value: "user_id", kind: "id", priority: 5 },
    { header: "KIND", value: "kind", priority: 3 },
    { header: "STATUS", value: "status", priority: 4 },
  ],
});
