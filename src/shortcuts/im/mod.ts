/**
 * The instant-messaging shortcuts. Adding one: a new file in this folder and one line here.
 *
 * @module
 */

import type { AnyShortcut } from "../definition.ts";
import { chatCreate } from "./chat_create.ts";
import { chatMembers, chatMembersAdd, chatMembersRemove } from "./chat_members.ts";
import { chatUpdate } from "./chat_update.ts";
import { chats } from "./chats.ts";
import { download } from "./download.ts";
import { get } from "./get.ts";
import { messages } from "./messages.ts";
import { messagesSearch } from "./messages_search.ts";
import { forward, recall } from "./message_actions.ts";
import { pin, pins, unpin } from "./pins.ts";
import { reactionAdd, reactionRemove, reactions } from "./reactions.ts";
import { messageReadUsers, urgent } from "./read_status.ts";
import { reply } from "./reply.ts";
import { send } from "./send.ts";
import { thread } from "./thread.ts";

/** The shortcuts of `hark im`, in help order. */
export const IM_SHORTCUTS: readonly AnyShortcut[] = [
  send,
  reply,
  messages,
  messagesSearch,
  thread,
  get,
  download,
  reactions,
  reactionAdd,
  reactionRemove,
  pins,
  pin,
  unpin,
  forward,
  recall,
  messageReadUsers,
  urgent,
  chats,
  chatCreate,
  chatUpdate,
  chatMembers,
  chatMembersAdd,
  chatMembersRemove,
];
