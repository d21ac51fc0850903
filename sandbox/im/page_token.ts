/**
 * Opaque page tokens for the sandbox's listings: base64url JSON that binds the position to the
 * query it came from, so a token replayed against another query is refused, as Lark does.
 *
 * @module
 */

/** A decoded token: the query fingerprint and the position to continue after. */
export interface PageToken<P> {
  /** Fingerprint of the query the token belongs to. */
  query: string;
  position: P;
}

/** Encodes a position for a query. */
export function encodePageToken<P>(query: string, position: P): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ q: query, p: position }));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Decodes a token; undefined when it is not one of ours.
 *
 * @param text the token as the client sent it
 * @param valid checks the decoded position's shape
 */
export function decodePageToken<P>(
  text: string,
  valid: (position: unknown) => position is P,
): PageToken<P> | undefined {
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const value = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof value?.q !== "string" || !valid(value.p)) return undefined;
    return { query: value.q, position: value.p };
  } catch {
    return undefined;
  }
}

/**
 * The offset a `page_token` query parameter holds: 0 without one, `undefined` for a token that
 * is not one of ours or belongs to another query.
 *
 * @param url the request's URL
 * @param fingerprint the query the token must belong to
 */
export function offsetOf(url: URL, fingerprint: string): number | undefined {
  const text = url.searchParams.get("page_token");
  if (!text) return 0;
  const token = decodePageToken(
    text,
    (value): value is number =>
      typeof value === "number" && Number.isSafeInteger(value) && value >= 0,
  );
  return token && token.query === fingerprint ? token.position : undefined;
}
