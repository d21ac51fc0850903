/**
 * The seeded history of one chat, generated lazily: message `i` is a pure function of the seed,
 * the chat and `i`, so a chat of a million messages costs no memory until a page of it is read.
 * Senders are the chat's members (and the bot when it is one); the history mixes text, mentions,
 * posts, cards, images, files, inline replies, threads with replies, a few recalled and edited
 * messages and, rarely, text carrying terminal control characters. Times increase strictly, so a
 * time window maps to an index range by binary search.
 *
 * Ids decode back to their position: `om_` + 8 hash + 2 chat + 8 index + 4 reply + 10 hash hex
 * digits, the middle ones masked by the first eight, so a message id alone finds its message
 * without an index.
 *
 * @module
 */

import type { MessageItem } from "./im_store.ts";
import type { Mention } from "./message_content.ts";
import { hash32, hashHex, type SeedChat, type SeedUser, unit } from "../core/seed_data.ts";

/** What one chat's history is made from. */
export interface SeededHistoryOptions {
  seed: number;
  /** The chat's position among the seeded chats (0–255), encoded in its message ids. */
  chatIndex: number;
  chat: SeedChat;
  /** Every seeded user, by open_id. */
  users: Map<string, SeedUser>;
  appId: string;
  tenantKey: string;
  /** How many chat-level messages (thread replies come on top). */
  count: number;
  /** The newest message is shortly before this time (ms). */
  endMs: number;
  /** Seeded image keys the image and post messages use. */
  imageKeys: string[];
  /** Seeded files the file messages use. */
  files: { key: string; fileName: string }[];
}

type Kind =
  | "text"
  | "mention"
  | "post"
  | "interactive"
  | "image"
  | "file"
  | "reply"
  | "thread"
  | "hostile";

const SPAN_MS = 30 * 86_400_000;
const RECALLED = "This message was recalled";

const LINES = [
  "Morning all, standup notes are in the doc.",
  "The staging deploy is green again.",
  "Can someone review the migration before lunch?",
  "I moved the retro to Thursday.",
  "Latency is back under 200 ms after the cache fix.",
  "Ship it!",
  "Who owns the flaky integration test?",
  "The customer confirmed the fix works on their side.",
  "Reminder: code freeze starts Friday at noon.",
  "Dashboards are updated with last week's numbers.",
  "I'll be out tomorrow afternoon, ping me before three.",
  "The release notes draft is ready for comments.",
  "Rolling back the feature flag for now.",
  "Great work on the launch, everyone.",
  "Let's pair on the parser bug after the sync.",
  "Benchmarks attached, the new path is twice as fast.",
  "Incident review is at 15:00 in the big room.",
  "Heads up: the VPN certificate rotates tonight.",
  "Does anyone have the link to the design mocks?",
  "Thanks, that unblocked me.",
  "优先处理线上告警，其余的明天再看。",
  "Merci pour le retour rapide !",
  "The on-call handbook has a new runbook for disk alerts.",
  "Running the load test again with the bigger dataset.",
];
const TITLES = ["Weekly update", "Release checklist", "Post-mortem summary", "Sprint goals"];
const CARDS = ["Build passed", "Deploy finished", "Alert resolved", "Approval requested"];
const HOSTILE = [
  "\u001b[31mALERT\u001b[0m disk almost full \u001b]0;pwned\u0007",
  "invoice\u202etxt.exe is ready",
  "line one\r\nline two\u0000 with a NUL",
];

/** The lazily generated history of one seeded chat. */
export class SeededHistory {
  readonly #o: SeededHistoryOptions;
  readonly #senders: string[];
  readonly #step: number;
  readonly #start: number;

  constructor(options: SeededHistoryOptions) {
    this.#o = options;
    this.#senders = [...options.chat.member_open_ids];
    if (options.chat.bot_member) this.#senders.push("");
    this.#step = Math.max(1000, Math.floor(SPAN_MS / Math.max(1, options.count)));
    this.#start = options.endMs - options.count * this.#step;
  }

  /** The number of chat-level messages. */
  get count(): number {
    return this.#o.count;
  }

  /** The chat the history belongs to. */
  get chatId(): string {
    return this.#o.chat.chat_id;
  }

  #u(i: number, salt: number, r = 0): number {
    return unit(this.#o.seed, this.#o.chatIndex, i, r, salt);
  }

  /** Creation time of message `i` in ms; strictly increasing in `i`. */
  timeAt(i: number): number {
    return this.#start + i * this.#step + Math.floor(this.#u(i, 1) * this.#step * 0.8);
  }

  /** The first index whose time is at least `ms` (`count` when none is). */
  lowerBound(ms: number): number {
    let lo = 0;
    let hi = this.#o.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.timeAt(mid) < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #rawKind(i: number): Kind {
    if (i === 0) return "text";
    const r = this.#u(i, 2);
    if (r < 0.05) return "thread";
    if (r < 0.13) return "reply";
    if (r < 0.21) return "post";
    if (r < 0.26) return "interactive";
    if (r < 0.33) return "image";
    if (r < 0.39) return "file";
    if (r < 0.46) return "mention";
    if (r < 0.465) return "hostile";
    return "text";
  }

  #recalled(i: number): boolean {
    const kind = this.#rawKind(i);
    return (kind === "text" || kind === "mention") && this.#u(i, 3) < 0.015;
  }

  /** The message an inline reply answers, or undefined when `i` is not a usable reply. */
  #parentOf(i: number): number | undefined {
    if (this.#rawKind(i) !== "reply") return undefined;
    let p = Math.max(0, i - 1 - Math.floor(this.#u(i, 4) * 4));
    for (let steps = 0; steps < 10 && p >= 0; steps++, p--) {
      if (this.#rawKind(p) !== "thread" && !this.#recalled(p)) return p;
    }
    return undefined;
  }

  #kind(i: number): Kind {
    const kind = this.#rawKind(i);
    return kind === "reply" && this.#parentOf(i) === undefined ? "text" : kind;
  }

  #rootOf(p: number): number {
    let q = p;
    for (let steps = 0; steps < 64 && this.#kind(q) === "reply"; steps++) q = this.#parentOf(q)!;
    return q;
  }

  /** The number of seeded replies in the thread of message `i` (0 when it starts none). */
  threadSize(i: number): number {
    return this.#kind(i) === "thread" ? 1 + Math.floor(this.#u(i, 5) * 5) : 0;
  }

  /** The id of message `i`, or of reply `r` (1-based) in its thread. */
  idOf(i: number, r = 0): string {
    const { seed, chatIndex } = this.#o;
    const head = hash32(seed, chatIndex, i, r, 11);
    const [m1, m2] = [hash32(seed, head, 21), hash32(seed, head, 22)];
    return `om_${hex(head, 8)}${hex((chatIndex ^ m1) & 0xff, 2)}${hex((i ^ m2) >>> 0, 8)}${
      hex(((r ^ (m1 >>> 16)) & 0xffff) >>> 0, 4)
    }${hashHex(10, seed, chatIndex, i, r, 12)}`;
  }

  /** The thread id of message `i` when the seed made it a thread root. */
  threadIdOf(i: number): string | undefined {
    if (this.#kind(i) !== "thread") return undefined;
    const { seed, chatIndex } = this.#o;
    const head = hash32(seed, chatIndex, i, 13) >>> 8;
    const [m1, m2] = [hash32(seed, head, 23), hash32(seed, head, 24)];
    return `omt_${hex(head, 6)}${hex((chatIndex ^ m1) & 0xff, 2)}${hex((i ^ m2) >>> 0, 8)}`;
  }

  /** The position a message id stands for in this history, if it is one of its ids. */
  decode(messageId: string): { index: number; reply: number } | undefined {
    const at = decodeMessageId(this.#o.seed, messageId);
    if (!at || at.chatIndex !== this.#o.chatIndex || at.index >= this.#o.count) return undefined;
    if (at.reply > this.threadSize(at.index)) return undefined;
    const { index, reply } = at;
    return this.idOf(index, reply) === messageId ? { index, reply } : undefined;
  }

  /** The root index of a seeded thread id of this history. */
  decodeThread(threadId: string): number | undefined {
    const at = decodeThreadId(this.#o.seed, threadId);
    if (!at || at.chatIndex !== this.#o.chatIndex || at.index >= this.#o.count) return undefined;
    return this.threadIdOf(at.index) === threadId ? at.index : undefined;
  }

  #botSender(): MessageItem["sender"] {
    const { appId, tenantKey } = this.#o;
    return { id: appId, id_type: "app_id", sender_type: "app", tenant_key: tenantKey };
  }

  #sender(i: number, r: number, salt: number): MessageItem["sender"] {
    const { seed, chatIndex, tenantKey } = this.#o;
    const who = this.#senders[hash32(seed, chatIndex, i, r, salt) % this.#senders.length];
    return who === ""
      ? this.#botSender()
      : { id: who, id_type: "open_id", sender_type: "user", tenant_key: tenantKey };
  }

  #line(i: number, r: number, salt: number): string {
    return LINES[hash32(this.#o.seed, this.#o.chatIndex, i, r, salt) % LINES.length];
  }

  #mention(i: number, senderId: string): Mention {
    const others = this.#o.chat.member_open_ids.filter((id) => id !== senderId);
    const id = others[hash32(this.#o.seed, this.#o.chatIndex, i, 0, 6) % others.length];
    return {
      key: "@_user_1",
      id,
      id_type: "open_id",
      name: this.#o.users.get(id)?.name ?? "",
      tenant_key: this.#o.tenantKey,
    };
  }

  #body(i: number, kind: Kind, sender: MessageItem["sender"]) {
    const pick = <T>(items: T[], salt: number) =>
      items[hash32(this.#o.seed, this.#o.chatIndex, i, 0, salt) % items.length];
    const line = this.#line(i, 0, 7);
    switch (kind) {
      case "mention": {
        const mention = this.#mention(i, sender.id);
        return { msgType: "text", content: { text: `@_user_1 ${line}` }, mentions: [mention] };
      }
      case "post": {
        const mention = this.#mention(i, sender.id);
        const rows: unknown[][] = [
          [{ tag: "text", text: line }],
          [{ tag: "text", text: "Details: " }, {
            tag: "a",
            href: `https://example.com/notes/${i}`,
            text: "meeting notes",
          }],
          [{ tag: "at", user_id: "@_user_1", user_name: mention.name }, {
            tag: "text",
            text: " please take a look",
          }],
        ];
        if (hash32(this.#o.seed, i, 8) % 3 === 0) {
          rows.push([{ tag: "img", image_key: pick(this.#o.imageKeys, 9) }]);
        }
        return {
          msgType: "post",
          content: { title: pick(TITLES, 10), content: rows },
          mentions: [mention],
        };
      }
      case "interactive": {
        const title = pick(CARDS, 11);
        return {
          msgType: "interactive",
          content: {
            title,
            elements: [[{ tag: "text", text: `${title}: ${line}` }], [
              { tag: "button", text: "Open", type: "primary" },
            ]],
          },
        };
      }
      case "image":
        return { msgType: "image", content: { image_key: pick(this.#o.imageKeys, 12) } };
      case "file": {
        const file = pick(this.#o.files, 13);
        return { msgType: "file", content: { file_key: file.key, file_name: file.fileName } };
      }
      case "hostile":
        return { msgType: "text", content: { text: pick(HOSTILE, 14) } };
      default:
        return { msgType: "text", content: { text: line } };
    }
  }

  /** Chat-level message `i` in the read endpoints' shape. */
  itemAt(i: number): MessageItem {
    const kind = this.#kind(i);
    // Cards come from the bot when it is in the chat.
    const sender = kind === "interactive" && this.#o.chat.bot_member
      ? this.#botSender()
      : this.#sender(i, 0, 15);
    const created = this.timeAt(i);
    const updated = kind === "text" && this.#u(i, 16) < 0.03;
    const recalled = this.#recalled(i);
    const { msgType, content, mentions } = this.#body(i, kind, sender);
    const item: MessageItem = {
      message_id: this.idOf(i),
      msg_type: msgType,
      create_time: String(created),
      update_time: String(
        updated ? created + 60_000 + Math.floor(this.#u(i, 17) * 600_000) : created,
      ),
      deleted: recalled,
      updated,
      chat_id: this.#o.chat.chat_id,
      sender,
      body: { content: recalled ? RECALLED : JSON.stringify(content) },
    };
    if (mentions && !recalled) item.mentions = mentions;
    if (kind === "reply") {
      const parent = this.#parentOf(i)!;
      item.parent_id = this.idOf(parent);
      item.root_id = this.idOf(this.#rootOf(parent));
    }
    const threadId = this.threadIdOf(i);
    if (threadId) item.thread_id = threadId;
    return item;
  }

  /** The seeded replies in the thread message `i` starts, oldest first. */
  threadReplies(i: number): MessageItem[] {
    const size = this.threadSize(i);
    const threadId = this.threadIdOf(i);
    const replies: MessageItem[] = [];
    let at = this.timeAt(i);
    for (let r = 1; r <= size; r++) {
      at += 60_000 + Math.floor(this.#u(i, 18, r) * 240_000);
      replies.push({
        message_id: this.idOf(i, r),
        root_id: this.idOf(i),
        parent_id: this.idOf(i),
        thread_id: threadId,
        msg_type: "text",
        create_time: String(at),
        update_time: String(at),
        deleted: false,
        updated: false,
        chat_id: this.#o.chat.chat_id,
        sender: this.#sender(i, r, 19),
        body: { content: JSON.stringify({ text: this.#line(i, r, 20) }) },
      });
    }
    return replies;
  }

  /** A message of this history by id: chat-level or a thread reply. */
  messageById(messageId: string): MessageItem | undefined {
    const at = this.decode(messageId);
    if (!at) return undefined;
    return at.reply === 0 ? this.itemAt(at.index) : this.threadReplies(at.index)[at.reply - 1];
  }
}

/**
 * The chat, index and reply a seeded message id encodes (the middle digits are masked by a hash
 * of the first eight, so ids look random); undefined when the id has not that form. The caller
 * still checks the id against the history, which rejects ids the seed never made.
 */
export function decodeMessageId(
  seed: number,
  messageId: string,
): { chatIndex: number; index: number; reply: number } | undefined {
  if (!/^om_[0-9a-f]{32}$/.test(messageId)) return undefined;
  const head = parseInt(messageId.slice(3, 11), 16);
  const [m1, m2] = [hash32(seed, head, 21), hash32(seed, head, 22)];
  return {
    chatIndex: (parseInt(messageId.slice(11, 13), 16) ^ m1) & 0xff,
    index: (parseInt(messageId.slice(13, 21), 16) ^ m2) >>> 0,
    reply: (parseInt(messageId.slice(21, 25), 16) ^ (m1 >>> 16)) & 0xffff,
  };
}

/** The chat and root index a seeded thread id encodes; see `decodeMessageId`. */
export function decodeThreadId(
  seed: number,
  threadId: string,
): { chatIndex: number; index: number } | undefined {
  if (!/^omt_[0-9a-f]{16}$/.test(threadId)) return undefined;
  const head = parseInt(threadId.slice(4, 10), 16);
  const [m1, m2] = [hash32(seed, head, 23), hash32(seed, head, 24)];
  return {
    chatIndex: (parseInt(threadId.slice(10, 12), 16) ^ m1) & 0xff,
    index: (parseInt(threadId.slice(12, 20), 16) ^ m2) >>> 0,
  };
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, "0");
}
