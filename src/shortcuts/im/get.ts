/**
 * `hark im +get`: messages by id, fetched together (`GET /open-apis/im/v1/messages/mget`, as
 * lark-cli's `+messages-mget` does), up to 50 per request.
 *
 * @module
 */

import type { ApiRequest } from "../../http/request.ts";
import { type ApiCaller, defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { idListParam, MESSAGE_ID } from "../contact/ids.ts";
import { membershipErrors } from "./membership.ts";
import {
  messageColumns,
  messageItemsField,
  messageRow,
  READ_SCOPES,
  readScopes,
} from "./message_rows.ts";
import { SenderNames } from "./sender_names.ts";

/** The most ids one mget request takes (lark-cli `maxMGetMessageIDs`). */
export const MGET_MAX = 50;
/** The most ids one run takes. */
export const MAX_IDS = 500;

const PARAMS = {
  "message-id": param.string({
    description: `one or more message ids, separated by commas (at most ${MAX_IDS})`,
    required: true,
    valueName: "<om_id,…>",
  }),
};

/** The values of `+get`. */
export type GetValues = ValuesOf<typeof PARAMS>;

/**
 * The ids of `--message-id`, in groups of {@link MGET_MAX}.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming `--message-id` for a bad id or too many
 */
export function idBatches(input: ShortcutInput<Partial<GetValues>>): string[][] {
  const ids = idListParam(input, "message-id", MESSAGE_ID, MAX_IDS);
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += MGET_MAX) batches.push(ids.slice(i, i + MGET_MAX));
  return batches;
}

/**
 * The mget request of some ids.
 *
 * @param input the shortcut input (identity)
 * @param ids at most {@link MGET_MAX} message ids
 */
export function mgetRequest(input: ShortcutInput<unknown>, ids: string[]): ApiRequest {
  return {
    method: "GET",
    path: "/open-apis/im/v1/messages/mget",
    query: {
      message_ids: ids,
      // What lark-cli sends (buildMGetURL); the SDK has no mget, and list/get's
      // with_sender_name is not known to work here, so names come from the fallback lookups.
      card_msg_content_type: "raw_card_content",
    },
    scopes: readScopes(input),
  };
}

async function* fetchAll(input: ShortcutInput<GetValues>, client: ApiCaller) {
  const names = new SenderNames(client, input);
  for (const ids of idBatches(input)) {
    const data = await client.request(mgetRequest(input, ids));
    const items = await names.fill(messageItemsField(data, "items"));
    yield items.map((item) => messageRow(item, input.timeZone, input.warn));
  }
}

/** `im +get`. */
export const get = defineShortcut({
  service: "im",
  verb: "+get",
  description: "Get messages by id, with their senders and readable text",
  examples: [
    "hark im +get --message-id om_123",
    "hark im +get --message-id om_123,om_456 --json",
  ],
  identities: ["user", "bot"],
  scopes: READ_SCOPES,
  effect: "read",
  params: PARAMS,
  validate(input) {
    idBatches(input);
  },
  requests: (input) => idBatches(input).map((ids) => mgetRequest(input, ids)),
  stream: (input, client) => membershipErrors(input, fetchAll(input, client)),
  columns: messageColumns,
});
