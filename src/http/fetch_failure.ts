/**
 * What a failed `fetch` tells about whether the request reached the service.
 *
 * @module
 */

/**
 * How a `fetch` failed: `"dns"` (the host name did not resolve) and `"connect"` (no connection
 * could be opened) prove the request never reached the service; `"sent"` (the connection broke
 * after it was opened, or anything unknown) means it may have been served.
 */
export type FetchFailure = "dns" | "connect" | "sent";

/**
 * Classifies a rejection of `fetch`. Deno reports the cause only as text
 * (`client error (Connect): tcp connect error: Connection refused`), so this reads the text of
 * the error and its causes; anything unrecognised is `"sent"`, the safe answer.
 *
 * @param error what `fetch` rejected with
 */
export function classifyFetchFailure(error: unknown): FetchFailure {
  const text = describeChain(error).toLowerCase();
  if (text.includes("dns error") || text.includes("failed to lookup address")) return "dns";
  if (
    text.includes("client error (connect)") || text.includes("connection refused") ||
    text.includes("tcp connect error") || text.includes("are blocked")
  ) {
    return "connect";
  }
  return "sent";
}

/**
 * The messages of an error and its causes, joined by `: `.
 *
 * @param error anything thrown
 */
export function describeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ");
}
