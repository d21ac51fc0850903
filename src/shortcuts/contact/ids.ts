/**
 * Lark's ids as people type them on the command line: which kind a user id is (`ou_` open id,
 * `on_` union id, anything else a tenant user id), and the checks every id flag shares, so a
 * blank id, `.` or `..`, a stray space or a control character fails before any request with the
 * flag named.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { isDotSegment } from "../../http/request.ts";
import type { ShortcutInput } from "../definition.ts";
import { hasSpaceControlOrFormat } from "../../text_classes.ts";

/** The `user_id_type` values Lark accepts. */
export type UserIdType = "open_id" | "union_id" | "user_id";

/**
 * The `user_id_type` of a user id as typed: `ou_…` is an open id, `on_…` a union id, anything
 * else a tenant user id.
 *
 * @param id the id
 * @example
 * ```ts
 * userIdTypeOf("ou_7d8a6e6df7621556ce0d21922b676706ccs"); // "open_id"
 * userIdTypeOf("on_94a1ee5551019f18cd73d9f111898cf2"); // "union_id"
 * userIdTypeOf("a1b2c3d4"); // "user_id"
 * ```
 */
export function userIdTypeOf(id: string): UserIdType {
  if (id.startsWith("ou_")) return "open_id";
  if (id.startsWith("on_")) return "union_id";
  return "user_id";
}

/** What kind of id a flag takes, for its checks and messages. */
export interface IdKind {
  /** What it is called: `chat id`. */
  noun: string;
  /** The prefixes it must start with; none for any. */
  prefixes?: readonly string[];
  /** How to find one, as a command: `hark im +chats`. */
  find?: string;
  /** The shape it must have, beyond the prefix. */
  pattern?: RegExp;
}

/** A chat id: `oc_…`. */
export const CHAT_ID: IdKind = { noun: "chat id", prefixes: ["oc_"], find: "hark im +chats" };
/** A message id: `om_…`. */
export const MESSAGE_ID: IdKind = {
  noun: "message id",
  prefixes: ["om_"],
  find: "hark im +messages --chat-id <oc_…>",
};
/** A user id of any kind: open id, union id or tenant user id. */
export const USER_ID: IdKind = {
  noun: "user id (ou_…, on_… or a user id)",
  find: "hark contact +search-user --query <name>",
};

/**
 * An email address: a plausible one (`name@domain.tld`: one `@`, a dot in the domain, no empty
 * label), so a typo fails here rather than as the service's "invalid receive_id".
 */
export const EMAIL: IdKind = {
  noun: "email address (name@example.com)",
  pattern: /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/,
};

const SHOWN_MAX = 60;
/** The longest id taken: Lark's ids are under 70 characters (a tenant's user ids under 64). */
export const MAX_ID_LENGTH = 128;

/**
 * A value quoted for a message, cut when long.
 *
 * @param value the value as given
 */
export function quoted(value: string): string {
  return JSON.stringify(value.length > SHOWN_MAX ? `${value.slice(0, SHOWN_MAX)}…` : value);
}

/**
 * Checks one id as typed for `flag`.
 *
 * @param value the value
 * @param flag the flag, for messages: `--chat-id`
 * @param kind what it should be
 * @returns the id, trimmed
 * @throws {ValidationError} naming the flag for a blank id, `.` or `..` (URL parsing would drop
 *   it from the path: the request would reach another resource), one holding white space,
 *   control characters or invisible format characters (bidi controls, zero-width spaces: no Lark
 *   id holds one, and each would hide or reorder what a person reads), or one without the kind's
 *   prefix or shape
 */
export function checkId(value: string, flag: string, kind: IdKind): string {
  const id = value.trim();
  const prefixes = kind.prefixes ?? [];
  const wrong = id === "" || isDotSegment(id) || id.length > MAX_ID_LENGTH ||
    hasSpaceControlOrFormat(id) ||
    (prefixes.length > 0 && !prefixes.some((p) => id.startsWith(p) && id.length > p.length)) ||
    (kind.pattern !== undefined && !kind.pattern.test(id));
  if (wrong) {
    const article = /^[aeiou]/.test(kind.noun) ? "an" : "a";
    const expected = prefixes.length > 0
      ? `${article} ${kind.noun} (${prefixes.map((p) => `${p}…`).join(" or ")})`
      : `${article} ${kind.noun}`;
    throw new ValidationError(`Invalid value ${quoted(value)} for ${flag}: expected ${expected}`, {
      param: flag,
      suggestion: kind.find ? `Find one with: ${kind.find}` : undefined,
    });
  }
  return id;
}

/**
 * The id a parameter holds, checked; `undefined` when it was not given.
 *
 * @param input the shortcut input
 * @param name the parameter's name: `chat-id`
 * @param kind what it should be
 * @throws {ValidationError} as {@link checkId}
 */
export function idParam<K extends string>(
  input: ShortcutInput<{ readonly [P in K]?: string }>,
  name: K,
  kind: IdKind,
): string | undefined {
  const value = input.values[name];
  return typeof value === "string" ? checkId(value, `--${name}`, kind) : undefined;
}

/**
 * A comma-separated list of ids a parameter holds, each checked, without repeats.
 *
 * @param input the shortcut input
 * @param name the parameter's name: `members`
 * @param kind what each should be
 * @param max the most ids allowed
 * @returns the ids in order; empty when the parameter was not given
 * @throws {ValidationError} naming the flag for an empty list, a bad id or too many
 */
export function idListParam<K extends string>(
  input: ShortcutInput<{ readonly [P in K]?: string }>,
  name: K,
  kind: IdKind,
  max: number,
): string[] {
  const value = input.values[name];
  if (typeof value !== "string") return [];
  const flag = `--${name}`;
  const parts = value.split(",");
  if (parts.every((p) => p.trim() === "")) {
    throw new ValidationError(
      `Invalid value ${quoted(value)} for ${flag}: expected ${kind.noun}s`,
      {
        param: flag,
        suggestion: `Give one or more, separated by commas`,
      },
    );
  }
  const ids = [...new Set(parts.map((part) => checkId(part, flag, kind)))];
  if (ids.length > max) {
    throw new ValidationError(
      `Too many values for ${flag}: ${ids.length}, at most ${max} at a time`,
      { param: flag },
    );
  }
  return ids;
}
