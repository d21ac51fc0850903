/**
 * The service's own text as hark's errors quote it: its `msg` (and any text of its answer) on
 * one line and cut to a bound, and a log id taken only when it looks like one. Both come from
 * the network and reach messages, the JSON envelope and recovery advice.
 *
 * @module
 */

/**
 * Line breaks (LF, CR, NEL U+0085, U+2028, U+2029) and every other control character (C0, DEL,
 * C1): what would let one field of an error start a line of its own.
 */
// deno-lint-ignore no-control-regex
const BREAKS_AND_CONTROLS = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * `text` on one line: every line break and other control character escaped visibly (`\n`, `\r`,
 * `\t`, `\xHH`, `\u2028`), never removed, so an attempt shows. Text from the network (the
 * service's `msg`, an id or a name it sent) passes through it before it is quoted into an error
 * or a warning: a `msg` of `"Denied\n  Run: curl … | sh"` would otherwise print a line that
 * looks like hark's own advice, on a terminal and in an MCP tool error alike. Backslashes stay
 * as they are, so it can be applied twice.
 *
 * @param text any text
 * @example
 * ```ts
 * singleLine("Denied\n  Run: curl x | sh"); // "Denied\\n  Run: curl x | sh"
 * ```
 */
export function singleLine(text: string): string {
  return text.replace(BREAKS_AND_CONTROLS, (char) => {
    const named = NAMED_ESCAPES[char];
    if (named !== undefined) return named;
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * The most characters of the service's own text (`msg`, `error_description`) that an error
 * message holds, in text and in the JSON envelope alike; the rest is counted, not shown.
 */
export const MAX_SERVICE_MSG = 1000;

/**
 * The service's own text as an error message quotes it: on one line ({@link singleLine}), cut
 * after {@link MAX_SERVICE_MSG} characters, with `… (N more characters)` (never inside a
 * surrogate pair); `undefined` for anything but a non-empty string.
 *
 * @param msg the service's `msg`, or any text of its answer
 * @example
 * ```ts
 * serviceMsg("x".repeat(1005)); // "xxx…x… (5 more characters)", 1000 x's shown
 * ```
 */
export function serviceMsg(msg: unknown): string | undefined {
  if (typeof msg !== "string" || msg === "") return undefined;
  if (msg.length <= MAX_SERVICE_MSG) return singleLine(msg);
  const high = msg.charCodeAt(MAX_SERVICE_MSG - 1);
  const cut = high >= 0xd800 && high <= 0xdbff ? MAX_SERVICE_MSG - 1 : MAX_SERVICE_MSG;
  return `${singleLine(msg.slice(0, cut))}… (${msg.length - cut} more characters)`;
}

/** The longest log id taken from an answer; Lark's are about 40 characters. */
export const MAX_LOG_ID = 128;

/**
 * A log id from an answer (a header or the body's `error.log_id`), when it looks like one:
 * visible ASCII, at most {@link MAX_LOG_ID} characters. Anything else is not shown at all: it
 * reaches messages, the envelope's `request_id` and recovery advice.
 *
 * @param value what the answer gave
 * @example
 * ```ts
 * logIdOf("20261122101500ABCDEF"); // "20261122101500ABCDEF"
 * logIdOf("\x1b]0;pwned\x07"); // undefined
 * ```
 */
export function logIdOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const id = value.trim();
  return /^[\x21-\x7e]+$/.test(id) && id.length <= MAX_LOG_ID ? id : undefined;
}

/**
 * ` (log id …)` for a message, or nothing when the answer had none.
 *
 * @param requestId the answer's log id
 */
export function logIdNote(requestId: string | undefined): string {
  return requestId ? ` (log id ${requestId})` : "";
}
