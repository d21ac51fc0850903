/**
 * What `+send` and `+reply` share: the message body (`--text`, `--markdown`, `--content` with
 * `--msg-type`, `--image`, `--file`, or text piped to stdin), the idempotency key (Lark's
 * `uuid`), and the scopes of sending as each identity.
 *
 * @module
 */

import { ApiError, ValidationError } from "../../errors/mod.ts";
import { isObject, stringField } from "../../json/fields.ts";
import { readJson } from "../../json/read_json.ts";
import type { ApiRequest } from "../../http/request.ts";
import { terminalSafe } from "../../output/mod.ts";
import type { ApiCaller, ShortcutInput, ShortcutScopes } from "../definition.ts";
import { param, type ValuesOf } from "../param.ts";
import { avOf, FILE_KEY, IMAGE_KEY, MAX_MENTIONS, MENTION } from "./stored_media.ts";
import { checkId, idListParam } from "../contact/ids.ts";
import { markdownParagraphs } from "./markdown_post.ts";
import {
  checkMedia,
  type Media,
  mediaContent,
  mediaOf,
  UPLOAD_SCOPE,
  uploadRequest,
} from "./media.ts";
import { type MessageItem, messageItemOf, messageRow } from "./message_rows.ts";
import { type Where, withMembership } from "./membership.ts";

/** Message types the service accepts with `--content`. */
export const MSG_TYPES = [
  "text",
  "post",
  "image",
  "interactive",
  "file",
  "audio",
  "media",
  "sticker",
  "share_chat",
  "share_user",
] as const;

/** The longest idempotency key the service accepts. */
export const MAX_UUID_LENGTH = 50;

/**
 * Sending as each identity. Lark's im-v1 message create and reply docs: as a user,
 * im:message.send_as_user and im:message both ("需同时申请"), as lark-cli `+messages-send`
 * declares them; as the app, any one of im:message:send_as_bot, im:message and the legacy
 * im:message:send.
 */
export const SEND_SCOPES: ShortcutScopes = {
  user: ["im:message.send_as_user", "im:message"],
  bot: ["im:message:send_as_bot"],
  // Uploads (media.ts) go with the app's tenant token whatever the identity.
  tenantCalls: {
    when: "--image, --file, --audio, --video or --cover (the upload)",
    scopes: [UPLOAD_SCOPE],
  },
  alternatives: {
    "im:message:send_as_bot": ["im:message"],
    [UPLOAD_SCOPE]: ["im:resource:upload"],
  },
};

/** The body flags: exactly one is given (`--text` may come from piped stdin). */
export const BODIES = [
  "text",
  "markdown",
  "content",
  "image",
  "file",
  "image-key",
  "file-key",
  "audio",
  "video",
] as const;

/** The body parameters of a message, `--text` also read from piped stdin. */
export const BODY_PARAMS = {
  text: param.string({
    description: "the text of a text message",
    stdin: true,
    // Piped text is the message unless another body is given.
    stdinUnless: BODIES.filter((body) => body !== "text"),
  }),
  markdown: param.string({
    description: "Markdown, sent as a post shaped for Lark (paragraphs kept, headings scaled; " +
      "images only as uploaded img_ keys)",
  }),
  content: param.string({ description: "the raw content JSON, with --msg-type" }),
  "msg-type": param.enumOf(MSG_TYPES, { description: "the type of --content" }),
  image: param.string({
    description: "an image to upload and send (JPEG, PNG, WEBP, GIF, TIFF, BMP, ICO, HEIC; " +
      "up to 10 MB); the upload goes with the app's tenant token, the only one Lark takes",
    valueName: "<path>",
    localPath: "read",
  }),
  file: param.string({
    description: "a file to upload and send (up to 30 MB); the upload goes with the app's " +
      "tenant token, the only one Lark takes",
    valueName: "<path>",
    localPath: "read",
  }),
  "image-key": param.string({
    description: "send an image uploaded before, by its key (img_…)",
    valueName: "<img_key>",
  }),
  "file-key": param.string({
    description: "send a file uploaded before, by its key (file_…)",
    valueName: "<file_key>",
  }),
  audio: param.string({
    description: "an .opus file to upload and send as a voice message, or its key (file_…)",
    valueName: "<path|file_key>",
  }),
  video: param.string({
    description: "an .mp4 file to upload and send as a video, or its key (file_…); with --cover",
    valueName: "<path|file_key>",
  }),
  cover: param.string({
    description: "the video's cover: an image to upload, or its key (img_…)",
    valueName: "<path|img_key>",
  }),
  mention: param.string({
    description: `people to mention, separated by commas (open ids, ou_…), at most ` +
      `${MAX_MENTIONS}: Lark's <at> in --text, an at element in --markdown`,
    valueName: "<ou_id,…>",
  }),
  "idempotency-key": param.string({
    description: "sent as uuid; the same key within an hour sends once (default: a new UUID)",
    valueName: "<key>",
  }),
};

/**
 * The values of {@link BODY_PARAMS}, each possibly absent, so that any shortcut declaring them
 * (and a test giving only some) can pass its input.
 */
export type BodyValues = Partial<ValuesOf<typeof BODY_PARAMS>>;

/** The idempotency key's value, as `+send`, `+reply` and `+chat-create` declare it. */
export type KeyValues = Pick<BodyValues, "idempotency-key">;

/** A message ready to send, or a file to upload first (a video with its cover, a path or a key). */
export type Outgoing = { msgType: string; content: string } | {
  media: Media;
  cover?: Media | string;
};

/**
 * The message of the body flags: `--text` (or piped stdin) is a text message, `--markdown` a
 * post of `md` paragraphs shaped for what Lark renders (`markdown_post.ts`), `--content` with `--msg-type` is sent as given, `--image` and
 * `--file` a file to upload and send.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flags when none or several bodies are given, or for bad
 *   content
 */
export function outgoingOf(input: ShortcutInput<BodyValues>): Outgoing {
  const { values } = input;
  const given = BODIES.flatMap((name) => {
    const value = values[name];
    return value === undefined ? [] : [{ name, value }];
  });
  const list = BODIES.map((b) => `--${b}`).join(", ");
  if (given.length !== 1) {
    throw new ValidationError(
      given.length === 0
        ? `Missing message: give one of ${list}, or pipe the text to stdin`
        : `Conflicting flags: ${given.map((g) => `--${g.name}`).join(", ")}; give exactly ` +
          `one of ${list}`,
      { param: given.length === 0 ? "--text" : `--${given[1].name}` },
    );
  }
  const { name: body, value } = given[0];
  if (body !== "content" && value.trim() === "") {
    throw new ValidationError(`Invalid value "" for --${body}: expected the message`, {
      param: `--${body}`,
    });
  }
  const msgType = values["msg-type"];
  if (body !== "content" && msgType !== undefined) {
    throw new ValidationError("--msg-type goes with --content only", { param: "--msg-type" });
  }
  if (body !== "video" && values.cover !== undefined) {
    throw new ValidationError("--cover goes with --video only", { param: "--cover" });
  }
  const mentions = idListParam(input, "mention", MENTION, MAX_MENTIONS);
  if (mentions.length > 0 && body !== "text" && body !== "markdown") {
    throw new ValidationError("--mention goes with --text or --markdown", { param: "--mention" });
  }
  switch (body) {
    case "text": {
      const ats = mentions.map((id) => `<at user_id="${id}"></at> `).join("");
      return { msgType: "text", content: JSON.stringify({ text: ats + value }) };
    }
    case "markdown": {
      const ats = mentions.map((id) => ({ tag: "at", user_id: id }));
      const paragraphs = markdownParagraphs(value);
      const post = { title: "", content: ats.length > 0 ? [ats, ...paragraphs] : paragraphs };
      return { msgType: "post", content: JSON.stringify({ zh_cn: post }) };
    }
    case "image":
    case "file":
      return { media: mediaOf(body, value) };
    case "image-key":
      return mediaContent({ kind: "image" }, checkId(value, "--image-key", IMAGE_KEY));
    case "file-key":
      return mediaContent({ kind: "file" }, checkId(value, "--file-key", FILE_KEY));
    case "audio":
    case "video":
      return avOf(body, value, values.cover);
  }
  if (msgType === undefined) {
    throw new ValidationError("Missing --msg-type: --content needs it", {
      param: "--msg-type",
      suggestion: `Give --msg-type, one of ${MSG_TYPES.join(", ")}`,
    });
  }
  const parsed = readJson(value, { source: "--content", param: "--content" });
  if (!isObject(parsed)) {
    throw new ValidationError("Invalid value for --content: expected a JSON object", {
      param: "--content",
      suggestion: `Give the content object, such as '{"text": "hello"}'`,
    });
  }
  return { msgType, content: JSON.stringify(parsed) };
}

/**
 * Checks the body and the idempotency key, and a file to upload on disk.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flag
 */
export async function checkOutgoing(input: ShortcutInput<BodyValues>): Promise<void> {
  const outgoing = outgoingOf(input);
  const key = input.values["idempotency-key"];
  if (key !== undefined && (key === "" || key.length > MAX_UUID_LENGTH)) {
    throw new ValidationError(
      `Invalid value ${JSON.stringify(key.slice(0, 60))} for --idempotency-key: expected 1 to ` +
        `${MAX_UUID_LENGTH} characters`,
      { param: "--idempotency-key" },
    );
  }
  if ("media" in outgoing) {
    await checkMedia(input.ctx, outgoing.media);
    if (typeof outgoing.cover === "object") await checkMedia(input.ctx, outgoing.cover);
  }
}

/**
 * The idempotency key: `--idempotency-key`, else a new UUID.
 *
 * @param input the shortcut input
 */
export function keyOf(input: ShortcutInput<KeyValues>): string {
  return input.values["idempotency-key"] ?? input.ctx.randomUUID();
}

/** Builds the request that posts a message: a send or a reply, given its shortcut's input. */
export type MessageRequest<V> = (
  input: ShortcutInput<V>,
  uuid: string,
  message: { msgType: string; content: string },
) => ApiRequest;

/**
 * The `requests` and `run` hooks of a shortcut that posts one message: the preview shows the
 * upload of a file and the message with a placeholder key; a run uploads, then posts with one
 * idempotency key, a not-in-the-chat answer explained.
 *
 * @typeParam V the values of the shortcut, which declares {@link BODY_PARAMS}
 * @param build the message's request
 * @param where the chat, when the command names it
 */
export function postingHooks<V extends BodyValues>(
  build: MessageRequest<V>,
  where: (input: ShortcutInput<V>) => Where = () => ({}),
) {
  return {
    requests(input: ShortcutInput<V>): ApiRequest[] {
      const outgoing = outgoingOf(input);
      return [
        ...uploadPreview(outgoing),
        build(input, keyOf(input), previewContent(outgoing)),
      ];
    },
    async run(input: ShortcutInput<V>, client: ApiCaller): Promise<Posted> {
      const key = keyOf(input);
      const message = await contentOf(input, client, outgoingOf(input));
      const answer = await withMembership(
        input,
        client.request(build(input, key, message)),
        where(input),
      );
      return { item: messageItemOf(answer), message, key, chatId: where(input).chatId };
    },
  };
}

/** A message the service accepted: as its answer gives it, and what was sent. */
export interface Posted {
  /** The message of the answer; absent when the answer holds none (no `message_id`). */
  item: MessageItem | undefined;
  /** The type and content sent. */
  message: { msgType: string; content: string };
  /** The idempotency key sent. */
  key: string;
  /** The chat, when the command named it. */
  chatId?: string;
}

/**
 * A posted message as an output row: the answer's message ({@link messageRow}); when the answer
 * holds none, what was sent (no `message_id`), and a warning that says the message was posted
 * all the same and how to post nothing twice.
 *
 * @param posted what {@link postingHooks}' `run` returned
 * @param input the shortcut input (time zone, warnings)
 */
export function postedRow(posted: Posted, input: ShortcutInput<unknown>): Record<string, unknown> {
  if (posted.item) return messageRow(posted.item, input.timeZone, input.warn);
  input.warn(
    "The message was sent (the service accepted it), but the service's answer holds no " +
      "message, so its id is unknown; running the command again with --idempotency-key " +
      `${posted.key} posts nothing new`,
  );
  const sent: MessageItem = {
    message_id: "",
    msg_type: posted.message.msgType,
    body: { content: posted.message.content },
    ...(posted.chatId === undefined ? {} : { chat_id: posted.chatId }),
  };
  const row = messageRow(sent, input.timeZone);
  delete row.message_id;
  return row;
}

/**
 * The scopes of a send or reply request, named in a permission error.
 *
 * @param input the shortcut input
 */
export function sendScopes(input: ShortcutInput<unknown>): string[] {
  return [...(SEND_SCOPES[input.identity] ?? [])];
}

/**
 * The requests before the message itself: the upload of a file, if any, with the app's tenant
 * token (for `--dry-run`).
 *
 * @param outgoing the body
 */
export function uploadPreview(outgoing: Outgoing): ApiRequest[] {
  if (!("media" in outgoing)) return [];
  const typeOf = (media: Media) => media.kind === "image" ? "image/*" : "application/octet-stream";
  const { media, cover } = outgoing;
  return [
    uploadRequest(media, typeOf(media)),
    ...(typeof cover === "object" ? [uploadRequest(cover, typeOf(cover))] : []),
  ];
}

/**
 * The content a preview shows: the message's own, or a placeholder for the key an upload
 * would answer.
 *
 * @param outgoing the body
 */
export function previewContent(outgoing: Outgoing): { msgType: string; content: string } {
  if (!("media" in outgoing)) return outgoing;
  const { media, cover } = outgoing;
  const coverKey = typeof cover === "object" ? "<image_key of the cover's upload>" : cover;
  const placeholder = media.kind === "image"
    ? "<image_key of the upload>"
    : "<file_key of the upload>";
  return mediaContent(media, placeholder, coverKey);
}

/**
 * The message's type and content, uploading its file first when it has one (the file is
 * checked on disk again: it may have changed since validation).
 *
 * @param input the shortcut input
 * @param client the client
 * @param outgoing the body
 */
export async function contentOf(
  input: ShortcutInput<unknown>,
  client: ApiCaller,
  outgoing: Outgoing,
): Promise<{ msgType: string; content: string }> {
  if (!("media" in outgoing)) return outgoing;
  const { media, cover } = outgoing;
  const key = await upload(input, client, media);
  const coverKey = typeof cover === "object" ? await upload(input, client, cover) : cover;
  return mediaContent(media, key, coverKey);
}

/** Uploads one file (checked on disk again) and answers its key. */
async function upload(
  input: ShortcutInput<unknown>,
  client: ApiCaller,
  media: Media,
): Promise<string> {
  const checked = await checkMedia(input.ctx, media);
  input.ctx.status(
    `Uploading ${terminalSafe(media.name, { breaks: "space" })} ` +
      `(${Math.ceil(checked.size / 1024)} KiB) as the app`,
  );
  const answer = await client.request<unknown>(uploadRequest(media, checked.contentType));
  const key = stringField(answer, media.kind === "image" ? "image_key" : "file_key");
  if (!key) {
    throw new ApiError(`The upload of ${JSON.stringify(media.path)} answered no key`, {
      type: "invalid_response",
      suggestion: "Retry; if it keeps failing, check the base URL points at the Open Platform",
    });
  }
  return key;
}
