/**
 * Message content as Lark checks it on the way in and shapes it on the way out: the send-side
 * rules of each `msg_type`, the resource keys a message refers to, and the received form that
 * the list and get endpoints return (mentions as `@_user_N`, a post without its locale wrapper,
 * `md` elements rendered into the post elements Lark returns, file names added to file
 * messages).
 *
 * Sources: "发送消息内容结构" (send-side shapes) and "接收消息内容结构" (received shapes), Lark
 * server docs `im-v1/message/create_json` and `im-v1/message-content-description/message_content`;
 * the 230001 sub-reasons from the "如何解决 230001 错误" troubleshooting page.
 *
 * @module
 */

/** The `msg_type` values the send and reply endpoints accept. */
export const MSG_TYPES = [
  "text",
  "post",
  "image",
  "file",
  "audio",
  "media",
  "sticker",
  "interactive",
  "share_chat",
  "share_user",
  "system",
] as const;

/** A mention as the read endpoints report it. */
export interface Mention {
  key: string;
  id: string;
  id_type: string;
  name: string;
  tenant_key: string;
}

/** What a content string refers to and whether it is well formed. */
export interface ParsedContent {
  /** A 230001 sub-reason when the content is malformed. */
  problem?: string;
  /** Image keys the content uses. */
  images: string[];
  /** File keys the content uses (file, audio, media, sticker). */
  files: string[];
  /** `share_chat`'s chat. */
  chatId?: string;
  /** `share_user`'s user. */
  userId?: string;
}

const KIB = 1024;

/**
 * The largest `content` Lark accepts for a message type, in bytes: 150 KB for text, 30 KB for
 * posts and cards (send docs, error 230025); other types are small by construction.
 */
export function contentLimit(msgType: string): number {
  return msgType === "post" || msgType === "interactive" ? 30 * KIB : 150 * KIB;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const POST_TAG_FIELDS: Record<string, string[]> = {
  text: ["text"],
  a: ["href", "text"],
  at: ["user_id"],
  img: ["image_key"],
  media: ["file_key"],
  emotion: ["emoji_type"],
  md: ["text"],
  hr: [],
  code_block: ["text"],
};

function checkPost(content: Record<string, unknown>, out: ParsedContent): string | undefined {
  // Either {"zh_cn": {...}, "en_us": {...}} or {"post": {"zh_cn": ...}}.
  const locales = isObject(content.post) ? content.post : content;
  const entries = Object.entries(locales);
  if (entries.length === 0) return "content format of the post type is incorrect";
  for (const [, post] of entries) {
    if (!isObject(post) || !Array.isArray(post.content)) {
      return "content format of the post type is incorrect";
    }
    for (const line of post.content) {
      if (!Array.isArray(line)) return "content format of the post type is incorrect";
      for (const element of line) {
        if (!isObject(element) || typeof element.tag !== "string") {
          return "message_content has wrong tag";
        }
        const fields = POST_TAG_FIELDS[element.tag];
        if (!fields) return "message_content has wrong tag";
        for (const field of fields) {
          if (typeof element[field] !== "string") {
            return `message_content_${element.tag}_tag's ${field} field can't be nil`;
          }
        }
        if (element.tag === "img") out.images.push(element.image_key as string);
        if (element.tag === "media") {
          out.files.push(element.file_key as string);
          if (typeof element.image_key === "string") out.images.push(element.image_key);
        }
      }
    }
  }
  return undefined;
}

function needString(content: Record<string, unknown>, field: string, type: string) {
  return typeof content[field] === "string" && content[field] !== ""
    ? undefined
    : `content format of the ${type} type is incorrect`;
}

/**
 * Checks a `content` string for a `msg_type` the way the send and reply endpoints do, and lists
 * what it refers to. The caller checks that the keys, chat and user exist.
 *
 * @param msgType one of `MSG_TYPES`
 * @param content the `content` field: a string holding JSON
 */
export function parseContent(msgType: string, content: string): ParsedContent {
  const out: ParsedContent = { images: [], files: [] };
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    out.problem = "content is not a string in json format";
    return out;
  }
  if (!isObject(value)) {
    out.problem = "content is not a string in json format";
    return out;
  }
  switch (msgType) {
    case "text":
      out.problem = typeof value.text === "string" && value.text !== ""
        ? undefined
        : "content format of the text type is incorrect";
      break;
    case "post":
      out.problem = checkPost(value, out);
      break;
    case "image":
      out.problem = needString(value, "image_key", msgType);
      if (!out.problem) out.images.push(value.image_key as string);
      break;
    case "file":
    case "audio":
    case "sticker":
      out.problem = needString(value, "file_key", msgType);
      if (!out.problem && msgType !== "sticker") out.files.push(value.file_key as string);
      break;
    case "media":
      out.problem = needString(value, "file_key", msgType);
      if (!out.problem) {
        out.files.push(value.file_key as string);
        if (typeof value.image_key === "string") out.images.push(value.image_key);
      }
      break;
    case "share_chat":
      out.problem = needString(value, "chat_id", msgType);
      out.chatId = value.chat_id as string;
      break;
    case "share_user":
      out.problem = needString(value, "user_id", msgType);
      out.userId = value.user_id as string;
      break;
    case "system":
      out.problem = value.type === "divider" ? undefined : "invalid system message type";
      break;
    case "interactive":
      // Cards: a card JSON object or a template reference; both are objects.
      break;
  }
  return out;
}

/** Looks up facts the received form needs. */
export interface RenderLookup {
  /** A user's display name by open_id. */
  nameOf(openId: string): string | undefined;
  /** A stored file's name, duration and the file type it was uploaded as. */
  fileOf(key: string): { fileName?: string; duration?: number } | undefined;
  tenantKey: string;
}

const AT_TAG = /<at\s+(?:user_id|open_id|id)="?([^"\s>]+)"?\s*>(.*?)<\/at>/g;

function renderText(text: string, lookup: RenderLookup, mentions: Mention[]): string {
  return text.replace(AT_TAG, (_all, id: string, name: string) => {
    if (id === "all") return "@_all";
    return `@_user_${addMention(id, name, lookup, mentions)}`;
  });
}

function addMention(id: string, name: string, lookup: RenderLookup, mentions: Mention[]): number {
  const existing = mentions.findIndex((m) => m.id === id);
  if (existing >= 0) return existing + 1;
  mentions.push({
    key: `@_user_${mentions.length + 1}`,
    id,
    id_type: "open_id",
    name: lookup.nameOf(id) ?? name,
    tenant_key: lookup.tenantKey,
  });
  return mentions.length;
}

/** One element of a received post. */
type PostElement = Record<string, unknown>;

/**
 * A post's paragraphs with every `md` element rendered as Lark returns it: `md` is a send-only
 * tag, and a read post holds only the received elements ("接收消息内容结构": `text` with its
 * `style` list of bold, italic, underline, lineThrough; `a`, `at`, `img`, `code_block`, `hr`).
 * An `md` element's lines become paragraphs; its blank lines are dropped (one `md` element does
 * not keep them: lark-cli's post builder splits paragraphs into `md` elements for that reason).
 * How Lark draws a heading or a list item is not documented: here a heading is bold text and a
 * list item keeps its marker as text (unverified).
 */
function expandMd(paragraphs: PostElement[][]): PostElement[][] {
  const out: PostElement[][] = [];
  for (const paragraph of paragraphs) {
    let current: PostElement[] = [];
    for (const element of paragraph) {
      if (element.tag !== "md") {
        current.push(element);
        continue;
      }
      const rendered = mdParagraphs(String(element.text));
      if (rendered.length === 0) continue;
      current.push(...rendered[0]);
      for (const next of rendered.slice(1)) {
        out.push(current);
        current = next;
      }
    }
    out.push(current);
  }
  return out;
}

/** The paragraphs of one `md` element's text. */
function mdParagraphs(text: string): PostElement[][] {
  const out: PostElement[][] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (fence) {
      const code: string[] = [];
      while (++i < lines.length && !lines[i].trimStart().startsWith(fence[1])) code.push(lines[i]);
      out.push([{
        tag: "code_block",
        language: fence[2].toUpperCase() || "PLAIN_TEXT",
        text: code.join("\n") + "\n",
      }]);
      continue;
    }
    if (line.trim() === "") continue;
    if (/^ {0,3}([-*_])( *\1){2,} *$/.test(line)) {
      out.push([{ tag: "hr" }]);
      continue;
    }
    const heading = /^ {0,3}#{1,6}[ \t]+(.*)$/.exec(line);
    if (heading) {
      out.push(inlineMd(heading[1]).map((e) => e.tag === "text" ? withStyle(e, "bold") : e));
      continue;
    }
    out.push(inlineMd(line));
  }
  return out;
}

function withStyle(element: PostElement, style: string): PostElement {
  const styles = Array.isArray(element.style) ? element.style : [];
  return { ...element, style: styles.includes(style) ? styles : [...styles, style] };
}

/** Inline Markdown: bold, italic, strikethrough, underline, links, mentions, uploaded images. */
const INLINE = new RegExp(
  [
    "\\*\\*(?<bold>.+?)\\*\\*",
    "~~(?<strike>.+?)~~",
    "<u>(?<under>.+?)</u>",
    "(?<![\\w*])\\*(?<italic>[^*\\s](?:.*?[^*\\s])?)\\*(?![\\w*])",
    "!\\[[^\\]]*\\]\\((?<img>img_[\\w-]+)\\)",
    "\\[(?<label>[^\\]]+)\\]\\((?<href>[^)\\s]+)\\)",
    '<at user_id="(?<at>[^"]+)"\\s*>[^<]*</at>',
  ].join("|"),
  "g",
);

function inlineMd(text: string): PostElement[] {
  const out: PostElement[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push({ tag: "text", text: text.slice(last, m.index) });
    const g = m.groups ?? {};
    if (g.bold !== undefined) out.push({ tag: "text", text: g.bold, style: ["bold"] });
    else if (g.strike !== undefined) {
      out.push({ tag: "text", text: g.strike, style: ["lineThrough"] });
    } else if (g.under !== undefined) {
      out.push({ tag: "text", text: g.under, style: ["underline"] });
    } else if (g.italic !== undefined) {
      out.push({ tag: "text", text: g.italic, style: ["italic"] });
    } else if (g.img !== undefined) out.push({ tag: "img", image_key: g.img });
    else if (g.href !== undefined) out.push({ tag: "a", text: g.label, href: g.href });
    else if (g.at !== undefined) out.push({ tag: "at", user_id: g.at });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ tag: "text", text: text.slice(last) });
  return out;
}

function renderPost(value: Record<string, unknown>, lookup: RenderLookup, mentions: Mention[]) {
  const locales = isObject(value.post) ? value.post : value;
  if (Array.isArray(locales.content)) return value; // already in the received form
  const post = (locales.zh_cn ?? locales.en_us ?? Object.values(locales)[0]) as Record<
    string,
    unknown
  >;
  const lines = expandMd(post.content as Record<string, unknown>[][]).map((line) =>
    line.map((element) => {
      if (element.tag === "at" && element.user_id !== "all") {
        const n = addMention(String(element.user_id), "", lookup, mentions);
        return { tag: "at", user_id: `@_user_${n}`, user_name: mentions[n - 1].name };
      }
      if (element.tag === "text" && typeof element.text === "string") {
        return { ...element, text: renderText(element.text, lookup, mentions) };
      }
      return element;
    })
  );
  return { title: typeof post.title === "string" ? post.title : "", content: lines };
}

function renderCard(value: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(value.elements) && value.elements.every((e) => Array.isArray(e))) {
    return value; // already in the received form
  }
  const header = isObject(value.header) ? value.header : {};
  const title = isObject(header.title) && typeof header.title.content === "string"
    ? header.title.content
    : "";
  const elements = (Array.isArray(value.elements) ? value.elements : []).flatMap((element) => {
    if (!isObject(element)) return [];
    if (typeof element.content === "string") return [[{ tag: "text", text: element.content }]];
    if (isObject(element.text) && typeof element.text.content === "string") {
      return [[{ tag: "text", text: element.text.content }]];
    }
    return [];
  });
  return { title, elements };
}

/**
 * The received form of stored content, as the list and get endpoints return it, with its
 * mentions. Content already in the received form (seeded messages) comes back unchanged.
 */
export function renderContent(
  msgType: string,
  content: string,
  lookup: RenderLookup,
): { content: string; mentions: Mention[] } {
  const mentions: Mention[] = [];
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(content);
  } catch {
    return { content, mentions };
  }
  let out: Record<string, unknown> = value;
  if (msgType === "text" && typeof value.text === "string") {
    out = { text: renderText(value.text, lookup, mentions) };
  } else if (msgType === "post") {
    out = renderPost(value, lookup, mentions);
  } else if (msgType === "interactive") {
    out = renderCard(value);
  } else if (["file", "audio", "media"].includes(msgType) && typeof value.file_key === "string") {
    const file = lookup.fileOf(value.file_key);
    out = { ...value };
    if (msgType !== "audio" && out.file_name === undefined && file?.fileName) {
      out.file_name = file.fileName;
    }
    if (msgType !== "file" && out.duration === undefined && file?.duration !== undefined) {
      out.duration = file.duration;
    }
  }
  return { content: out === value ? content : JSON.stringify(out), mentions };
}

/** The image and file keys a (received-form) message holds, for the resource endpoint. */
export function resourceKeys(content: string): { images: Set<string>; files: Set<string> } {
  const images = new Set<string>();
  const files = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      if (typeof value.image_key === "string") images.add(value.image_key);
      if (typeof value.file_key === "string") files.add(value.file_key);
      Object.values(value).forEach(walk);
    }
  };
  try {
    walk(JSON.parse(content));
  } catch {
    // not JSON: no keys
  }
  return { images, files };
}
