/**
 * The sandbox's IM state: chats and their members (users and the bot), the seeded histories,
 * the messages sent while the server runs, threads, and uploaded images and files. Listing
 * merges a chat's lazily generated history with its new messages in time order and pages by an
 * opaque cursor, so a 50,000-message chat is read page by page without materialising it.
 *
 * @module
 */

import type { SentMessage } from "../core/context.ts";
import type { Mention } from "./message_content.ts";
import { hashHex, hashString, type SeedChat, type SeedUser } from "../core/seed_data.ts";
import { createSeedResources, type SeedResource } from "./seed_files.ts";
import { decodeMessageId, decodeThreadId, SeededHistory } from "./seed_messages.ts";

/** Who acts: a user's open_id, or `BOT` for the app's bot (a tenant token). */
export type Actor = string;
/** The actor standing for the bot; the same string the calendar store uses. */
export const BOT = "bot";

/** A message in the shape the read endpoints return. */
export interface MessageItem {
  message_id: string;
  root_id?: string;
  parent_id?: string;
  thread_id?: string;
  msg_type: string;
  create_time: string;
  update_time: string;
  deleted: boolean;
  updated: boolean;
  chat_id: string;
  sender: {
    id: string;
    id_type: string;
    sender_type: "user" | "app";
    tenant_key: string;
    sender_name?: string;
  };
  body?: { content: string };
  mentions?: Mention[];
  upper_message_id?: string;
}

/** An uploaded (or seeded) image or file. */
export interface StoredResource extends SeedResource {
  /** Who uploaded it: an open_id, or `BOT`. */
  owner: Actor;
  /** Audio and video length in ms, as given at upload. */
  duration?: number;
  /** Images: "message" or "avatar". */
  imageType?: string;
}

/** A chat: a seeded or created group, or the p2p chat of two parties. */
export interface ChatRecord {
  chat_id: string;
  name: string;
  description: string;
  /** Members' open_ids. */
  members: string[];
  botMember: boolean;
  /** The owner's open_id; undefined when the bot owns the chat. */
  owner?: string;
  botManager: boolean;
  chatMode: "group" | "p2p";
  chatType: "private" | "public";
  groupMessageType: "chat" | "thread";
  /** Creation time, ms. */
  createTime: number;
  history?: SeededHistory;
  /** Settings a create request chose (visibility, approval, avatar, i18n_names…). */
  settings?: Record<string, unknown>;
}

/** A page position: creation time, source (0 seeded, 1 sent here) and index within the source. */
export type Cursor = [number, number, number];

/** A listing request. */
export interface ListQuery {
  /** Inclusive bounds in ms. */
  startMs?: number;
  endMs?: number;
  desc: boolean;
  /** Continue after this position. */
  after?: Cursor;
  limit: number;
}

/** One page of a listing. */
export interface ListPage {
  items: MessageItem[];
  /** Position of the last item, to continue from. */
  last?: Cursor;
  more: boolean;
}

/** How the store is seeded. */
export interface ImStoreOptions {
  seed: number;
  appId: string;
  tenantKey: string;
  users: SeedUser[];
  chats: SeedChat[];
  /** The seeded histories end shortly before this time (ms). */
  anchorMs: number;
  /** Messages in each seeded chat's history. */
  messagesPerChat: number;
  /** When larger, the first seeded chat gets this many messages instead (benchmarks). */
  largeChatMessages: number;
}

interface Entry {
  message: SentMessage;
  time: number;
  seq: number;
}

interface Keyed {
  key: Cursor;
  item: () => MessageItem;
}

function compare(a: Cursor, b: Cursor): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** All IM state of one sandbox. */
export class ImStore {
  readonly #o: ImStoreOptions;
  readonly #chats = new Map<string, ChatRecord>();
  readonly #histories: SeededHistory[] = [];
  readonly #resources = new Map<string, StoredResource>();
  readonly #chatMessages = new Map<string, Entry[]>();
  readonly #threadMessages = new Map<string, Entry[]>();
  readonly #byId = new Map<string, Entry>();
  readonly #threadOfRoot = new Map<string, string>();
  readonly #rootOfThread = new Map<string, string>();
  readonly #chatByUuid = new Map<string, { chatId: string; at: number }>();
  readonly users: Map<string, SeedUser>;
  #seq = 0;

  constructor(options: ImStoreOptions) {
    this.#o = options;
    this.users = new Map(options.users.map((u) => [u.open_id, u]));
    const resources = createSeedResources(options.seed);
    for (const resource of resources) {
      const owner = options.users[0]?.open_id ?? BOT;
      this.#resources.set(resource.key, { ...resource, owner });
    }
    const imageKeys = resources.filter((r) => r.kind === "image").map((r) => r.key);
    const files = resources.filter((r) => r.kind === "file").map((r) => ({
      key: r.key,
      fileName: r.fileName!,
    }));
    options.chats.forEach((chat, chatIndex) => {
      const count = chatIndex === 0 && options.largeChatMessages > options.messagesPerChat
        ? options.largeChatMessages
        : options.messagesPerChat;
      const history = count > 0
        ? new SeededHistory({
          seed: options.seed,
          chatIndex,
          chat,
          users: this.users,
          appId: options.appId,
          tenantKey: options.tenantKey,
          count,
          endMs: options.anchorMs,
          imageKeys,
          files,
        })
        : undefined;
      if (history) this.#histories[chatIndex] = history;
      this.#chats.set(chat.chat_id, {
        chat_id: chat.chat_id,
        name: chat.name,
        description: chat.description,
        members: [...chat.member_open_ids],
        botMember: chat.bot_member,
        owner: chat.member_open_ids[0],
        botManager: false,
        chatMode: "group",
        chatType: chat.chat_type,
        groupMessageType: "chat",
        createTime: options.anchorMs - (400 - chatIndex * 7) * 86_400_000,
        history,
      });
    });
  }

  /** The tenant every seeded identity belongs to. */
  get tenantKey(): string {
    return this.#o.tenantKey;
  }

  /** The app id the bot speaks as. */
  get appId(): string {
    return this.#o.appId;
  }

  /** A chat by id. */
  chat(chatId: string): ChatRecord | undefined {
    return this.#chats.get(chatId);
  }

  /** Every group chat, oldest first. */
  groupChats(): ChatRecord[] {
    return [...this.#chats.values()].filter((c) => c.chatMode === "group").sort((a, b) =>
      a.createTime - b.createTime
    );
  }

  /** Every chat, group and p2p, oldest first. */
  allChats(): ChatRecord[] {
    return [...this.#chats.values()].sort((a, b) => a.createTime - b.createTime);
  }

  /** Whether an actor is a member of a chat. */
  isMember(chat: ChatRecord, actor: Actor): boolean {
    return actor === BOT ? chat.botMember : chat.members.includes(actor);
  }

  /**
   * The p2p chat between two parties, created on first use (Lark creates it on the first
   * message). `a` may be `BOT`; `b` is a user.
   */
  p2pChat(a: Actor, b: string, now: number): ChatRecord {
    const pair = [a, b].sort().join("|");
    const chatId = `oc_${hashHex(32, hashString(pair), this.#o.seed, 77)}`;
    let chat = this.#chats.get(chatId);
    if (!chat) {
      const members = a === BOT ? [b] : [...new Set([a, b])];
      chat = {
        chat_id: chatId,
        name: "",
        description: "",
        members,
        botMember: a === BOT,
        owner: undefined,
        botManager: false,
        chatMode: "p2p",
        chatType: "private",
        groupMessageType: "chat",
        createTime: now,
      };
      this.#chats.set(chatId, chat);
    }
    return chat;
  }

  /** The p2p chat of two parties when it exists (someone wrote in it), without creating it. */
  existingP2pChat(a: Actor, b: string): ChatRecord | undefined {
    const pair = [a, b].sort().join("|");
    return this.#chats.get(`oc_${hashHex(32, hashString(pair), this.#o.seed, 77)}`);
  }

  /** Adds a created group chat. */
  addChat(chat: ChatRecord): void {
    this.#chats.set(chat.chat_id, chat);
  }

  /** The chat created earlier with the same idempotency key within 10 hours, if any. */
  chatByUuid(key: string, now: number): ChatRecord | undefined {
    const earlier = this.#chatByUuid.get(key);
    if (!earlier || now - earlier.at >= 10 * 3600_000) return undefined;
    return this.#chats.get(earlier.chatId);
  }

  /** Remembers the chat a creation with an idempotency key made. */
  rememberChatUuid(key: string, chatId: string, now: number): void {
    this.#chatByUuid.set(key, { chatId, at: now });
  }

  /** An uploaded or seeded image or file. */
  resource(key: string): StoredResource | undefined {
    return this.#resources.get(key);
  }

  /** Stores an upload. */
  addResource(resource: StoredResource): void {
    this.#resources.set(resource.key, resource);
  }

  #history(chatId: string): SeededHistory | undefined {
    return this.#chats.get(chatId)?.history;
  }

  #seeded(messageId: string): MessageItem | undefined {
    const at = decodeMessageId(this.#o.seed, messageId);
    return at && this.#histories[at.chatIndex]?.messageById(messageId);
  }

  #withThread(item: MessageItem): MessageItem {
    const threadId = this.#threadOfRoot.get(item.message_id);
    return threadId && !item.thread_id ? { ...item, thread_id: threadId } : item;
  }

  /** A message by id, seeded or sent here, with the thread it started if any. */
  message(messageId: string): MessageItem | undefined {
    const entry = this.#byId.get(messageId);
    if (entry) return entry.message;
    const seeded = this.#seeded(messageId);
    return seeded && this.#withThread(seeded);
  }

  /** The root message id of a thread, if the thread exists. */
  threadRoot(threadId: string): string | undefined {
    const known = this.#rootOfThread.get(threadId);
    if (known) return known;
    const at = decodeThreadId(this.#o.seed, threadId);
    const history = at && this.#histories[at.chatIndex];
    const index = history?.decodeThread(threadId);
    return index === undefined ? undefined : history!.idOf(index);
  }

  /** The thread a message starts or belongs to. */
  threadOf(messageId: string): string | undefined {
    return this.message(messageId)?.thread_id;
  }

  /** Makes a message the root of a new thread and returns the thread id. */
  startThread(rootId: string): string {
    const existing = this.threadOf(rootId);
    if (existing) return existing;
    const threadId = `omt_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    this.#threadOfRoot.set(rootId, threadId);
    this.#rootOfThread.set(threadId, rootId);
    const entry = this.#byId.get(rootId);
    if (entry) entry.message.thread_id = threadId;
    return threadId;
  }

  /**
   * Stores a message sent here. A message with a `thread_id` that is not its thread's root is a
   * thread reply: it shows in the thread, not in the chat.
   */
  append(message: SentMessage): void {
    const entry: Entry = { message, time: Number(message.create_time), seq: ++this.#seq };
    this.#byId.set(message.message_id, entry);
    const inThread = message.thread_id !== undefined &&
      this.threadRoot(message.thread_id) !== message.message_id;
    const map = inThread ? this.#threadMessages : this.#chatMessages;
    const key = inThread ? message.thread_id! : message.chat_id;
    const list = map.get(key) ?? [];
    list.push(entry);
    map.set(key, list);
  }

  /** The time of the newest message of a chat (its creation time when it has none). */
  lastActivity(chat: ChatRecord): number {
    const sent = this.#chatMessages.get(chat.chat_id);
    const seededLast = chat.history && chat.history.count > 0
      ? chat.history.timeAt(chat.history.count - 1)
      : chat.createTime;
    return Math.max(seededLast, sent?.at(-1)?.time ?? 0);
  }

  /** A page of a chat's messages (thread replies excluded), in time order. */
  listChat(chat: ChatRecord, query: ListQuery): ListPage {
    const inWindow = (t: number) =>
      (query.startMs === undefined || t >= query.startMs) &&
      (query.endMs === undefined || t <= query.endMs);
    const sent: Keyed[] = (this.#chatMessages.get(chat.chat_id) ?? [])
      .filter((e) => inWindow(e.time))
      .map((e) => ({ key: [e.time, 1, e.seq], item: () => e.message }));
    const history = this.#history(chat.chat_id);
    let lo = 0;
    let hi = 0;
    if (history) {
      lo = query.startMs === undefined ? 0 : history.lowerBound(query.startMs);
      hi = query.endMs === undefined ? history.count : history.lowerBound(query.endMs + 1);
    }
    const after = query.after;
    const seededKey = (i: number): Cursor => [history!.timeAt(i), 0, i];
    const seededItem = (i: number) => () => this.#withThread(history!.itemAt(i));
    const items: MessageItem[] = [];
    let last: Cursor | undefined;
    if (!query.desc) {
      let i = lo;
      if (after && history) {
        i = Math.max(lo, after[1] === 0 ? after[2] + 1 : history.lowerBound(after[0] + 1));
      }
      const rest = after ? sent.filter((s) => compare(s.key, after) > 0) : sent;
      let j = 0;
      while (items.length < query.limit && (i < hi || j < rest.length)) {
        if (j >= rest.length || (i < hi && compare(seededKey(i), rest[j].key) < 0)) {
          last = seededKey(i);
          items.push(seededItem(i)());
          i++;
        } else {
          last = rest[j].key;
          items.push(rest[j].item());
          j++;
        }
      }
      return { items, last, more: i < hi || j < rest.length };
    }
    let i = hi - 1;
    if (after && history) {
      i = Math.min(hi - 1, after[1] === 0 ? after[2] - 1 : history.lowerBound(after[0] + 1) - 1);
    }
    const rest = (after ? sent.filter((s) => compare(s.key, after) < 0) : sent).reverse();
    let j = 0;
    while (items.length < query.limit && (i >= lo || j < rest.length)) {
      if (j >= rest.length || (i >= lo && compare(seededKey(i), rest[j].key) > 0)) {
        last = seededKey(i);
        items.push(seededItem(i)());
        i--;
      } else {
        last = rest[j].key;
        items.push(rest[j].item());
        j++;
      }
    }
    return { items, last, more: i >= lo || j < rest.length };
  }

  /** A page of a thread: its root message, then its replies, in time order. */
  listThread(threadId: string, query: ListQuery): ListPage {
    const rootId = this.threadRoot(threadId)!;
    const all: Keyed[] = [];
    const rootEntry = this.#byId.get(rootId);
    if (rootEntry) {
      all.push({ key: [rootEntry.time, 1, rootEntry.seq], item: () => rootEntry.message });
    } else {
      const root = this.message(rootId)!;
      const history = this.#history(root.chat_id)!;
      const index = history.decode(rootId)!.index;
      all.push({ key: [Number(root.create_time), 0, index * 64], item: () => root });
      history.threadReplies(index).forEach((reply, r) => {
        all.push({ key: [Number(reply.create_time), 0, index * 64 + r + 1], item: () => reply });
      });
    }
    for (const e of this.#threadMessages.get(threadId) ?? []) {
      all.push({ key: [e.time, 1, e.seq], item: () => e.message });
    }
    all.sort((a, b) => compare(a.key, b.key));
    if (query.desc) all.reverse();
    const after = query.after;
    const rest = after
      ? all.filter((k) => (query.desc ? compare(k.key, after) < 0 : compare(k.key, after) > 0))
      : all;
    const page = rest.slice(0, query.limit);
    return {
      items: page.map((k) => k.item()),
      last: page.at(-1)?.key,
      more: rest.length > page.length,
    };
  }
}
