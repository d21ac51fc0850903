/**
 * hark's own page tokens: where a listing resumes, bound to the listing and its arguments, so
 * that a token is never applied to another listing. MCP's pages (`src/mcp/result_page.ts`) and
 * the CLI's `calendar +agenda --page-token` share this shape: `h1.` and the cursor as base64url
 * JSON, whose field `b` is the binding.
 *
 * @module
 */

import { isObject, numberField, stringField } from "./fields.ts";

/** The longest token taken. */
export const MAX_CURSOR_TOKEN_LENGTH = 512;

/**
 * JSON with the keys of every object sorted and `undefined` members left out, so that the same
 * value always gives the same text.
 *
 * @param value any JSON value
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * What binds a cursor to one listing and its arguments: a digest of both.
 *
 * @param listing the listing's name (a tool, a command)
 * @param args the arguments that decide what the listing holds and in what order
 */
export async function cursorBinding(listing: string, args: unknown): Promise<string> {
  const text = canonicalJson([listing, args]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/**
 * The token of a cursor.
 *
 * @param cursor where to resume; `b` is the binding
 */
export function encodeCursor(cursor: Record<string, unknown> & { b: string }): string {
  return `h1.${btoa(JSON.stringify(cursor)).replace(/\+/g, "-").replace(/\//g, "_")}`;
}

/**
 * The cursor of a token, when it is one of hark's, of the listing's shape, and bound to `binding`.
 *
 * @param token the token as given (anything)
 * @param binding the binding of the listing asked for
 * @param fits whether a cursor has the fields of the listing's cursors
 * @returns the cursor; `"foreign"` for what is not a token of that listing's kind;
 *   `"other-arguments"` for one of another listing or of other arguments
 */
export function openCursor(
  token: unknown,
  binding: string,
  fits: (cursor: Record<string, unknown>) => boolean,
): Record<string, unknown> | "foreign" | "other-arguments" {
  const cursor = typeof token === "string" && token.length <= MAX_CURSOR_TOKEN_LENGTH
    ? decodeCursor(token)
    : undefined;
  if (cursor === undefined || !fits(cursor)) return "foreign";
  return stringField(cursor, "b") === binding ? cursor : "other-arguments";
}

/**
 * Whether a cursor field is a count: a whole number, 0 or more.
 *
 * @param cursor the cursor
 * @param key the field
 */
export function isCountField(cursor: Record<string, unknown>, key: string): boolean {
  const value = numberField(cursor, key);
  return value !== undefined && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The cursor inside a token, unchecked: {@link openCursor} checks what it is bound to.
 *
 * @param token the token
 */
export function decodeCursor(token: string): Record<string, unknown> | undefined {
  if (!/^h1\.[A-Za-z0-9_-]+=*$/.test(token)) return undefined;
  try {
    const parsed: unknown = JSON.parse(
      atob(token.slice(3).replace(/-/g, "+").replace(/_/g, "/")),
    );
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
