/**
 * `hark im +send`: send a message to a chat or a person. A send carries an idempotency key
 * (`uuid`), so a retried send never posts twice.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { readJson } from "../../json/read_json.ts";
import type { ApiRequest } from "../../http/request.ts";
import { formatLocalTime } from "../../time/mod.ts";
import { defineShortcut, type ShortcutInput } from "../definition.ts";

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

const RECEIVERS = ["chat-id", "user-id", "email"] as const;
const BODIES = ["text", "markdown", "content"] as const;

/** The receiver of a message. */
export interface Receiver {
  /** `receive_id_type`. */
  type: "chat_id" | "open_id" | "user_id" | "email";
  /** `receive_id`. */
  id: string;
}

/**
 * The receiver: exactly one of `--chat-id`, `--user-id` (an `ou_` id is an open id, anything
 * else a user id) and `--email`.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the three flags when none or several are given
 */
export function receiverOf(input: ShortcutInput): Receiver {
  const given = RECEIVERS.filter((name) => input.values[name] !== undefined);
  if (given.length !== 1) {
    throw new ValidationError(
      given.length === 0
        ? "Missing receiver: give one of --chat-id, --user-id, --email"
        : `Conflicting flags: ${given.map((g) => `--${g}`).join(", ")}; give exactly one of ` +
          "--chat-id, --user-id, --email",
      { param: given.length === 0 ? "--chat-id" : `--${given[1]}` },
    );
  }
  const id = (input.values[given[0]] as string).trim();
  if (id === "") {
    throw new ValidationError(`Invalid value "" for --${given[0]}`, { param: `--${given[0]}` });
  }
  if (given[0] === "chat-id") return { type: "chat_id", id };
  if (given[0] === "email") return { type: "email", id };
  return { type: id.startsWith("ou_") ? "open_id" : "user_id", id };
}

/**
 * The message type and content (a JSON string): `--text` (or piped stdin) is a text message,
 * `--markdown` a post with one `md` element, `--content` with `--msg-type` is sent as given.
 *
 * @param input the shortcut input
 * @throws {ValidationError} naming the flags when none or several bodies are given, or for bad
 *   content
 */
export function messageOf(input: ShortcutInput): { msgType: string; content: string } {
  const { values } = input;
  const given = BODIES.filter((name) => values[name] !== undefined);
  if (given.length !== 1) {
    throw new ValidationError(
      given.length === 0
        ? "Missing message: give one of --text, --markdown, --content, or pipe the text to stdin"
        : `Conflicting flags: ${given.map((g) => `--${g}`).join(", ")}; give exactly one of ` +
          "--text, --markdown, --content",
      { param: given.length === 0 ? "--text" : `--${given[1]}` },
    );
  }
  if (given[0] !== "content" && (values[given[0]] as string).trim() === "") {
    throw new ValidationError(`Invalid value "" for --${given[0]}: expected the message`, {
      param: `--${given[0]}`,
    });
  }
  const msgType = values["msg-type"] as string | undefined;
  if (given[0] !== "content" && msgType !== undefined) {
    throw new ValidationError("--msg-type goes with --content only", { param: "--msg-type" });
  }
  if (given[0] === "text") {
    return { msgType: "text", content: JSON.stringify({ text: values.text as string }) };
  }
  if (given[0] === "markdown") {
    const post = { title: "", content: [[{ tag: "md", text: values.markdown as string }]] };
    return { msgType: "post", content: JSON.stringify({ zh_cn: post }) };
  }
  if (msgType === undefined) {
    throw new ValidationError("Missing --msg-type: --content needs it", {
      param: "--msg-type",
      suggestion: `Give --msg-type, one of ${MSG_TYPES.join(", ")}`,
    });
  }
  const parsed = readJson(values.content as string, { source: "--content", param: "--content" });
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ValidationError("Invalid value for --content: expected a JSON object", {
      param: "--content",
      suggestion: `Give the content object, such as '{"text": "hello"}'`,
    });
  }
  return { msgType, content: JSON.stringify(parsed) };
}

/**
 * The send request.
 *
 * @param input the shortcut input
 * @param uuid the idempotency key
 */
export function sendRequest(input: ShortcutInput, uuid: string): ApiRequest {
  const receiver = receiverOf(input);
  const { msgType, content } = messageOf(input);
  return {
    method: "POST",
    path: "/open-apis/im/v1/messages",
    query: { receive_id_type: receiver.type },
    body: { receive_id: receiver.id, msg_type: msgType, content, uuid },
    idempotencyKey: uuid,
    scopes: [input.identity === "bot" ? "im:message:send_as_bot" : "im:message.send_as_user"],
  };
}

function keyOf(input: ShortcutInput): string {
  return (input.values["idempotency-key"] as string | undefined) ?? input.ctx.randomUUID();
}

/** `im +send`. Acts as the user by default (like every shortcut); `--as bot` sends as the app. */
export const send = defineShortcut<Record<string, unknown>>({
  service: "im",
  verb: "+send",
  description: "Send a message to a chat or a person (safe to retry: it carries an idempotency " +
    "key)",
  examples: [
    "hark im +send --chat-id oc_123 --text 'Deploy finished'",
    "echo 'Build #42 passed' | hark im +send --email ana@example.com",
    "hark im +send --user-id ou_123 --markdown '**Done**: see the [report](https://example.com)'",
    `hark im +send --chat-id oc_123 --msg-type interactive --content '{"elements": []}' --as bot`,
  ],
  identities: ["user", "bot"],
  scopes: { user: ["im:message.send_as_user"], bot: ["im:message:send_as_bot"] },
  effect: "write",
  idempotent: true,
  idempotencyKey: "idempotency-key",
  params: [
    { name: "chat-id", type: "string", description: "the chat to send to", valueName: "<oc_id>" },
    {
      name: "user-id",
      type: "string",
      description: "the person to send to: an open id (ou_…) or a user id",
      valueName: "<id>",
    },
    { name: "email", type: "string", description: "the person to send to, by email" },
    {
      name: "text",
      type: "string",
      description: "the text of a text message",
      stdin: true,
      stdinUnless: ["markdown", "content"],
    },
    { name: "markdown", type: "string", description: "Markdown, sent as a post" },
    { name: "content", type: "string", description: "the raw content JSON, with --msg-type" },
    { name: "msg-type", type: "enum", description: "the type of --content", allowed: MSG_TYPES },
    {
      name: "idempotency-key",
      type: "string",
      description: "sent as uuid; the same key within an hour sends once (default: a new UUID)",
      valueName: "<key>",
    },
  ],
  validate(input) {
    receiverOf(input);
    messageOf(input);
    const key = input.values["idempotency-key"] as string | undefined;
    if (key !== undefined && (key === "" || key.length > MAX_UUID_LENGTH)) {
      throw new ValidationError(
        `Invalid value ${JSON.stringify(key)} for --idempotency-key: expected 1 to ` +
          `${MAX_UUID_LENGTH} characters`,
        { param: "--idempotency-key" },
      );
    }
  },
  requests: (input) => [sendRequest(input, keyOf(input))],
  run: (input, client) => client.request(sendRequest(input, keyOf(input))),
  columns: (input) => [
    { header: "MESSAGE ID", value: "message_id", kind: "id", priority: 4 },
    { header: "CHAT ID", value: "chat_id", kind: "id", priority: 3 },
    { header: "MSG TYPE", value: "msg_type", priority: 1 },
    {
      header: "SENT",
      kind: "time",
      priority: 2,
      // The service gives epoch milliseconds as a string.
      value: (m) => {
        const ms = Number((m as { create_time?: unknown }).create_time);
        return Number.isFinite(ms) && ms > 0 ? formatLocalTime(ms, input.timeZone) : "";
      },
    },
  ],
});
