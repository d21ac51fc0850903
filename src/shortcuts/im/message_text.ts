/**
 * A message's content as a person reads it: text with its mentions as names, a post as its
 * title and lines, a card as its title and first text, and files, images and the rest as a
 * bracketed summary. The text is the service's own (not yet terminal-safe): tables neutralise
 * it, JSON keeps it exact.
 *
 * Shapes: Lark's "receive message content" reference (`im-v1/message-content-description`), the
 * Node SDK's `im.v1.message` list item, and lark-cli `shortcuts/im/convert_lib`.
 *
 * @module
 */

import { isObject, type JsonObject as Json, objectField } from "../../json/fields.ts";
import { parseNetworkJson } from "../../json/read_json.ts";

/** A mention as the read endpoints give it. */
export interface Mention {
  /** The placeholder in the text: `@_user_1`. */
  key: string;
  /** The person's id. */
  id: string;
  /** Their name. */
  name: string;
}

/** What the text of a message is made from. */
export interface MessageContent {
  /** `text`, `post`, `interactive`, `image`, `file`, … (unknown when absent) */
  msg_type?: string;
  /** The content: a JSON string (or Lark's plain note for a recalled message). */
  body?: { content: string };
  /** The people the text mentions. */
  mentions?: Mention[];
  /** Whether the message was recalled. */
  deleted?: boolean;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Replaces `@_user_N` placeholders by `@Name`, and `@_all` by `@all`. */
function withNames(text: string, mentions: Mention[]): string {
  const names = new Map(mentions.map((m) => [m.key, m.name]));
  return text.replace(/@_user_\d+|@_all/g, (key) => {
    if (key === "@_all") return "@all";
    const name = names.get(key);
    return name ? `@${name}` : key;
  });
}

/** The post object of a content: received `{title, content}`, or sent by locale. */
function postOf(value: Json): Json | undefined {
  if (Array.isArray(value.content)) return value;
  const locales = isObject(value.post) ? value.post : value;
  for (const locale of ["zh_cn", "en_us", "ja_jp"]) {
    const post = objectField(locales, locale);
    if (post) return post;
  }
  return Object.values(locales).find(isObject);
}

function postElement(element: unknown, mentions: Mention[]): string {
  if (!isObject(element)) return "";
  switch (element.tag) {
    case "text":
    case "md":
    case "code_block":
      return withNames(str(element.text), mentions);
    case "a":
      return element.href && element.text !== element.href
        ? `${str(element.text)} (${str(element.href)})`
        : str(element.text) || str(element.href);
    case "at": {
      const id = str(element.user_id);
      if (id === "all" || id === "@_all") return "@all";
      const name = str(element.user_name) || mentions.find((m) => m.key === id)?.name;
      return `@${name || id}`;
    }
    case "img":
      return `[image ${str(element.image_key)}]`;
    case "media":
      return "[video]";
    case "emotion":
      return `:${str(element.emoji_type)}:`;
    case "hr":
      return "---";
    default:
      return str(element.text);
  }
}

function postText(value: Json, mentions: Mention[]): string {
  const post = postOf(value);
  if (!post) return "[post]";
  const lines = (Array.isArray(post.content) ? post.content : [])
    .map((line) => Array.isArray(line) ? line.map((e) => postElement(e, mentions)).join("") : "");
  const title = str(post.title);
  const text = [title, ...lines].filter((line) => line.trim() !== "").join("\n");
  return text === "" ? "[post]" : text;
}

/** The texts of a card, in order: received form (lines of elements) or a raw card JSON. */
function cardTexts(value: unknown, out: string[], depth = 0): void {
  if (depth > 8 || out.length >= 3) return;
  if (Array.isArray(value)) {
    for (const item of value) cardTexts(item, out, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  if (value.tag === "button" || value.tag === "action") return;
  for (const key of ["content", "text"]) {
    const field = value[key];
    if (typeof field === "string" && field.trim() !== "") {
      out.push(field.trim());
      return;
    }
    if (isObject(field) && typeof field.content === "string" && field.content.trim() !== "") {
      out.push(field.content.trim());
      return;
    }
  }
  for (const key of ["elements", "columns", "body"]) {
    if (key in value) cardTexts(value[key], out, depth + 1);
  }
}

function cardText(value: Json): string {
  const header = isObject(value.header) ? value.header : {};
  const title = str(value.title) ||
    (isObject(header.title) ? str(header.title.content) : "");
  const texts: string[] = [];
  cardTexts(value.elements ?? (isObject(value.body) ? value.body.elements : undefined), texts);
  // Cards often repeat their title at the start of their first line.
  const body = texts
    .map((
      t,
    ) => (title && t.startsWith(title) ? t.slice(title.length).replace(/^[\s:：-]+/, "") : t))
    .filter((t) => t !== "")
    .slice(0, 2)
    .join(" · ");
  const summary = [title, body].filter((part) => part !== "").join(": ");
  return summary === "" ? "[card]" : `[card] ${summary}`;
}

function seconds(ms: unknown): string {
  const n = Number(ms);
  return Number.isFinite(n) && n > 0 ? ` ${Math.round(n / 1000)} s` : "";
}

/**
 * The readable text of a message.
 *
 * @param message the message as the read endpoints give it
 * @example
 * ```ts
 * messageText({
 *   msg_type: "text",
 *   body: { content: '{"text":"@_user_1 see the doc"}' },
 *   mentions: [{ key: "@_user_1", id: "ou_1", name: "Ana" }],
 * }); // "@Ana see the doc"
 * messageText({ msg_type: "file", body: { content: '{"file_key":"file_1","file_name":"a.pdf"}' } });
 * // "[file a.pdf (file_1)]"
 * ```
 */
export function messageText(message: MessageContent): string {
  if (message.deleted) return "[recalled]";
  const content = message.body?.content ?? "";
  const mentions = message.mentions ?? [];
  const parsed = parseNetworkJson(content);
  if (!parsed.ok || !isObject(parsed.value)) return content;
  const value = parsed.value;
  switch (message.msg_type) {
    case "text":
      return withNames(str(value.text), mentions);
    case "post":
      return postText(value, mentions);
    case "interactive":
      return cardText(value);
    case "image":
      return `[image ${str(value.image_key)}]`;
    case "file": {
      // A sent message's content has the key only; the read endpoints add the name.
      const name = str(value.file_name);
      return `[file ${name ? `${name} (${str(value.file_key)})` : str(value.file_key)}]`;
    }
    case "audio":
      return `[audio${seconds(value.duration)}]`;
    case "media":
      return `[video${str(value.file_name) ? ` ${str(value.file_name)}` : ""}${
        seconds(value.duration)
      }]`;
    case "sticker":
      return "[sticker]";
    case "share_chat":
      return `[shared chat ${str(value.chat_id)}]`;
    case "share_user":
      return `[shared contact ${str(value.user_id)}]`;
    case "location":
      return `[location ${str(value.name)}]`.replace(" ]", "]");
    case "merge_forward":
      return "[forwarded messages]";
    case "system":
      return "[system message]";
    default:
      return `[${message.msg_type ?? "unknown"}]`;
  }
}
