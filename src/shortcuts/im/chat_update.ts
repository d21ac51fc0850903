/**
 * `hark im +chat-update`: change a group chat's name, description, who may edit it or mention
 * everyone, or hand it over to another member (`PUT /open-apis/im/v1/chats/{chat_id}`). Handing
 * the chat over cannot be taken back by the one who gave it: it asks on a terminal and needs
 * `--yes` otherwise.
 *
 * @module
 */

import { CancelledError, ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { CHAT_ID, checkId, idParam, USER_ID, userIdTypeOf } from "../contact/ids.ts";
import { checkChatText, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from "./chat_create.ts";

/** Changing a chat, either identity (lark-cli `+chat-update`; Lark's doc adds im:chat). */
const SCOPES = ["im:chat:update"];
const ALTERNATIVES = { "im:chat:update": ["im:chat"] };

/** Who may do something in the chat. */
export const WHO = ["only_owner", "all_members"] as const;

const PARAMS = {
  "chat-id": param.string({ description: "the group chat (oc_…)", required: true }),
  name: param.string({ description: `the new name (at most ${MAX_NAME_LENGTH} characters)` }),
  description: param.string({
    description: `the new description (at most ${MAX_DESCRIPTION_LENGTH} characters; "" clears it)`,
  }),
  "edit-permission": param.enumOf(WHO, {
    description: "who may change the chat's name, description and avatar",
  }),
  "at-all-permission": param.enumOf(WHO, { description: "who may mention everyone" }),
  owner: param.string({
    description: "hand the chat over to this member (ou_…, on_… or a user id); asks first",
    valueName: "<id>",
  }),
  yes: param.bool({ description: "hand the chat over without asking" }),
};

/** The values of `+chat-update` (the chat id always; the rest as given). */
export type ChatUpdateValues = Partial<ValuesOf<typeof PARAMS>> & { readonly "chat-id": string };

/**
 * The body of the update: only what was given.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag for bad text or ids, or when nothing is to change
 */
export function updateBody(input: ShortcutInput<ChatUpdateValues>): Record<string, string> {
  const { values } = input;
  checkId(values["chat-id"], "--chat-id", CHAT_ID);
  checkChatText(values.name, "--name", MAX_NAME_LENGTH, true);
  checkChatText(values.description, "--description", MAX_DESCRIPTION_LENGTH, false);
  const owner = idParam(input, "owner", USER_ID);
  const body: Record<string, string> = {};
  if (values.name !== undefined) body.name = values.name.trim();
  if (values.description !== undefined) body.description = values.description.trim();
  if (values["edit-permission"] !== undefined) body.edit_permission = values["edit-permission"];
  if (values["at-all-permission"] !== undefined) {
    body.at_all_permission = values["at-all-permission"];
  }
  if (owner !== undefined) body.owner_id = owner;
  if (Object.keys(body).length === 0) {
    throw new ValidationError(
      "Nothing to change: give --name, --description, --edit-permission, --at-all-permission " +
        "or --owner",
      { param: "--name" },
    );
  }
  return body;
}

/**
 * The update request.
 *
 * @param input the shortcut input
 */
export function updateChatRequest(input: ShortcutInput<ChatUpdateValues>): ApiRequest {
  const body = updateBody(input);
  const owner = body.owner_id;
  return {
    method: "PUT",
    path: `/open-apis/im/v1/chats/${encodeURIComponent(input.values["chat-id"].trim())}`,
    query: { user_id_type: owner === undefined ? "open_id" : userIdTypeOf(owner) },
    body,
    scopes: SCOPES,
  };
}

/** `im +chat-update`. */
export const chatUpdate = defineShortcut({
  service: "im",
  verb: "+chat-update",
  description: "Rename a group chat, change its description or permissions, or hand it over",
  examples: [
    "hark im +chat-update --chat-id oc_123 --name 'Release 2.1'",
    "hark im +chat-update --chat-id oc_123 --description '' --edit-permission only_owner",
    "hark im +chat-update --chat-id oc_123 --owner ou_456 --yes --as bot",
  ],
  identities: ["user", "bot"],
  scopes: { user: SCOPES, bot: SCOPES, alternatives: ALTERNATIVES },
  effect: "write",
  // Setting the same fields twice leaves the chat as setting them once.
  idempotent: true,
  // A PUT that overwrites the name, description, permissions or owner: the old values are gone,
  // so hark mcp asks for yes: true, as for calendar +update.
  destructive: true,
  params: PARAMS,
  validate(input) {
    updateBody(input);
  },
  requests: (input) => [updateChatRequest(input)],
  async run(input, client) {
    const request = updateChatRequest(input);
    const owner = input.values.owner;
    if (owner !== undefined && input.values.yes !== true) {
      const question = `Hand chat ${input.values["chat-id"].trim()} over to ${owner.trim()}? ` +
        "Only the new owner can hand it back";
      const ok = await input.confirm(question, "--yes");
      if (!ok) throw new CancelledError("Cancelled: nothing was changed");
    }
    await client.request(request);
    return { chat_id: input.values["chat-id"].trim(), ...updateBody(input) };
  },
  columns: [
    { header: "CHAT ID", value: "chat_id", kind: "id", priority: 4 },
    { header: "NAME", value: "name", priority: 3 },
    { header: "DESCRIPTION", value: "description", priority: 1 },
    { header: "OWNER ID", value: "owner_id", kind: "id", priority: 2 },
  ],
});
