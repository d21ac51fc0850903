/**
 * What is done to a message once sent: `+forward` sends a copy to another chat or person (the
 * app only, with an idempotency key), `+recall` takes it back for everyone (asks first: it
 * cannot be undone). Endpoints: `POST /open-apis/im/v1/messages/{message_id}/forward` and
 * `DELETE /open-apis/im/v1/messages/{message_id}` (Lark's im-v1 message forward and delete
 * docs; lark-cli's scope table: messages.forward im:message, messages.delete im:message:recall).
 *
 * @module
 */

import { CancelledError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { checkId, MESSAGE_ID } from "../contact/ids.ts";
import { messageItemOf, messageRow } from "./message_rows.ts";
import { MAX_UUID_LENGTH } from "./outgoing.ts";
import { MESSAGE_PARAM, messagePath } from "./reactions.ts";
import { RECEIVER_PARAMS, receiverOf, RECEIVERS, sentColumns } from "./send.ts";

/** Forwarding, the app only: Lark's doc takes im:message or im:message:send_as_bot. */
const FORWARD = ["im:message:send_as_bot"];
/** Recalling, either identity: lark-cli's im:message:recall; Lark's doc adds the broad ones. */
const RECALL = ["im:message:recall"];

const FORWARD_PARAMS = {
  "message-id": MESSAGE_PARAM,
  ...RECEIVER_PARAMS,
  "idempotency-key": param.string({
    description: "sent as uuid; the same key within an hour forwards once (default: a new UUID)",
    valueName: "<key>",
  }),
};

/** The values of `+forward`. */
export type ForwardValues = ValuesOf<typeof FORWARD_PARAMS>;

/**
 * The forward request.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag for a bad id, receiver or key
 */
export function forwardRequest(input: ShortcutInput<ForwardValues>): ApiRequest {
  const path = messagePath(input, "/forward");
  const receiver = receiverOf(input);
  const uuid = input.values["idempotency-key"];
  if (uuid === undefined || uuid === "" || uuid.length > MAX_UUID_LENGTH) {
    throw new ValidationError(
      `Invalid value for --idempotency-key: give 1 to ${MAX_UUID_LENGTH} characters`,
      { param: "--idempotency-key" },
    );
  }
  return {
    method: "POST",
    path,
    query: { receive_id_type: receiver.type, uuid },
    body: { receive_id: receiver.id },
    idempotencyKey: uuid,
    scopes: FORWARD,
  };
}

/** `im +forward`. */
export const forward = defineShortcut({
  service: "im",
  verb: "+forward",
  description: "Forward a message to a chat or a person, as the app (safe to retry: it " +
    "carries an idempotency key)",
  examples: [
    "hark im +forward --message-id om_123 --chat-id oc_456 --as bot",
    "hark im +forward --message-id om_123 --email ana@example.com --as bot",
  ],
  identities: ["bot"],
  scopes: { bot: FORWARD, alternatives: { "im:message:send_as_bot": ["im:message"] } },
  effect: "write",
  idempotent: true,
  idempotencyKey: "idempotency-key",
  oneOf: [RECEIVERS],
  params: FORWARD_PARAMS,
  validate: (input) => void forwardRequest(input),
  requests: (input) => [forwardRequest(input)],
  run: (input, client) => client.request<unknown>(forwardRequest(input)),
  output(answer, input) {
    const item = messageItemOf(answer);
    if (item) return messageRow(item, input.timeZone, input.warn);
    input.warn(
      "The message was forwarded, but the service's answer holds no message; running the " +
        `command again with --idempotency-key ${
          input.values["idempotency-key"]
        } forwards nothing new`,
    );
    return { message_id: "" };
  },
  columns: (input) => sentColumns(input),
});

const RECALL_PARAMS = {
  "message-id": MESSAGE_PARAM,
  yes: param.bool({ description: "recall without asking" }),
};

/**
 * The recall request.
 *
 * @param input the shortcut input
 */
export function recallRequest(input: ShortcutInput<ValuesOf<typeof RECALL_PARAMS>>): ApiRequest {
  return { method: "DELETE", path: messagePath(input), scopes: RECALL };
}

/** `im +recall`. */
export const recall = defineShortcut({
  service: "im",
  verb: "+recall",
  description: "Recall a message for everyone in the chat (asks first: it cannot be undone)",
  examples: [
    "hark im +recall --message-id om_123",
    "hark im +recall --message-id om_123 --yes --as bot",
  ],
  identities: ["user", "bot"],
  scopes: {
    user: RECALL,
    bot: RECALL,
    alternatives: { "im:message:recall": ["im:message", "im:message:send_as_bot"] },
  },
  effect: "delete",
  // A recalled message stays recalled; Lark refuses the second recall with 230011.
  idempotent: false,
  params: RECALL_PARAMS,
  validate: (input) => void recallRequest(input),
  requests: (input) => [recallRequest(input)],
  async run(input, client) {
    const request = recallRequest(input);
    const id = checkId(input.values["message-id"], "--message-id", MESSAGE_ID);
    if (input.values.yes !== true) {
      const ok = await input.confirm(`Recall message ${id} for everyone?`, "--yes");
      if (!ok) throw new CancelledError("Cancelled: the message was not recalled");
    }
    await client.request<unknown>(request);
    return { message_id: id, recalled: true };
  },
  columns: [
    { header: "MESSAGE ID", value: "message_id", kind: "id", priority: 5 },
    { header: "RECALLED", value: "recalled", priority: 4 },
  ],
});
