/**
 * The one reader of JSON that a user supplies: `hark api --data` and `--params`, shortcut
 * `--input` files, `im +send --content`, `config set` values and the config file itself.
 *
 * `JSON.parse` alone is not fit for that: its `SyntaxError` quotes the input (an app secret or a
 * token with it), deeply nested input overflows the stack ("Maximum call stack size exceeded"),
 * and decoding bytes without care turns invalid UTF-8 into U+FFFD silently. {@link readJson}
 * decodes bytes strictly, checks the nesting without recursion (so no depth can overflow the
 * stack) and stops at {@link MAX_JSON_DEPTH} levels; only then does `JSON.parse` read the text,
 * and when it refuses it, a full scan reports the syntax error by line and column in its own
 * words, never quoting the input. JSON from the network (a service's answer) is read with
 * {@link parseNetworkJson}, its depth bounded the same way.
 *
 * @module
 */

import { ValidationError } from "../errors/mod.ts";

/**
 * The deepest nesting of arrays and objects accepted: 64 levels. The service's payloads nest a
 * handful of levels; anything near this limit is a mistake or an attack.
 */
export const MAX_JSON_DEPTH = 64;

/** Options of {@link readJson}. */
export interface ReadJsonOptions {
  /**
   * Where the JSON came from, as messages should name it: `--data`, `--input "event.json"`,
   * `the config file "/home/me/.config/hark/config.json"`.
   */
  source: string;
  /** The parameter the error names ({@link ValidationError.param}); default `source`. */
  param?: string;
  /** What the error suggests; default "Check the JSON given to <source>". */
  suggestion?: string;
  /** The deepest nesting accepted; default {@link MAX_JSON_DEPTH}. */
  maxDepth?: number;
}

/**
 * User-supplied JSON that cannot be read: not UTF-8, empty, malformed or nested too deeply;
 * exit 2. The message names the source and, for a syntax error, the line and column, and never
 * holds any of the input.
 */
export class JsonInputError extends ValidationError {
  /** The source, as given in {@link ReadJsonOptions.source}. */
  readonly source: string;
  /** What is wrong, in hark's words, such as `expected ',' or '}'`. */
  readonly reason: string;
  /** The line of the problem, from 1; absent when the input is empty. */
  readonly line: number | undefined;
  /** The column of the problem in characters, from 1; absent when the input is empty. */
  readonly column: number | undefined;

  /**
   * @param options the source, parameter and suggestion of the read
   * @param reason what is wrong
   * @param where the line and column, when the problem has a position
   */
  constructor(
    options: ReadJsonOptions,
    reason: string,
    where?: { line: number; column: number },
  ) {
    const at = where ? ` at line ${where.line}, column ${where.column}` : "";
    super(`Invalid JSON in ${options.source}${at}: ${reason}`, {
      param: options.param ?? options.source,
      suggestion: options.suggestion ?? `Check the JSON given to ${options.source}`,
    });
    this.name = "JsonInputError";
    this.source = options.source;
    this.reason = reason;
    this.line = where?.line;
    this.column = where?.column;
  }
}

/**
 * The deepest nesting of arrays and objects accepted in JSON from the network (a service's
 * answer): 512 levels. Lark's answers nest a handful; the limit keeps the code that walks an
 * answer (output, masking) from overflowing the stack on one built to do that.
 */
export const MAX_ANSWER_DEPTH = 512;

/** JSON from the network, parsed, or why it could not be. */
export type NetworkJson =
  | { ok: true; value: unknown }
  | { ok: false; problem: string };

/**
 * Parses JSON that came from the network (a service's answer): a scan without recursion first
 * refuses one nested deeper than `maxDepth`, then `JSON.parse` reads it. Never throws; the
 * problem is in hark's words and holds none of the text (it may hold a secret).
 *
 * @param text the answer's body
 * @param maxDepth the deepest nesting accepted; default {@link MAX_ANSWER_DEPTH}
 * @example
 * ```ts
 * parseNetworkJson('{"code": 0}'); // { ok: true, value: { code: 0 } }
 * parseNetworkJson("[".repeat(100_000)); // { ok: false, problem: "it nests deeper than 512 levels" }
 * ```
 */
export function parseNetworkJson(text: string, maxDepth = MAX_ANSWER_DEPTH): NetworkJson {
  if (nestsDeeperThan(text, maxDepth)) {
    return { ok: false, problem: `it nests deeper than ${maxDepth} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: NOT_JSON };
  }
}

/** The problem {@link parseNetworkJson} gives for text that is not JSON at all. */
export const NOT_JSON = "it is not JSON";

/**
 * Whether `text` has more than `maxDepth` arrays and objects open at once (brackets inside
 * strings do not count). Linear, without recursion; it does not check the rest of the syntax.
 *
 * @param text JSON text, or any text
 * @param maxDepth the deepest nesting accepted
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  if (opensAtMost(text, maxDepth)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // the escaped character, a quote or a backslash among them
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Whether `text` holds at most `limit` opening brackets in all, strings included: then nothing in
 * it can nest deeper than `limit`. Counted with `indexOf`, which costs a few native searches
 * where the character scan above runs once per character in the interpreter (about 1.6 M
 * instructions for a 1.7 KB config file), and stops at the first bracket over the limit.
 */
function opensAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ["[", "{"]) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > limit) return false;
    }
  }
  return true;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads user-supplied JSON.
 *
 * @param input the JSON as bytes (decoded as strict UTF-8; a leading byte-order mark is skipped)
 * or as text
 * @param options where it came from, for messages; the depth limit
 * @returns the parsed value
 * @throws {JsonInputError} when the bytes are not UTF-8, or the text is empty, not JSON, or nested
 * deeper than the limit
 * @example
 * ```ts
 * const body = readJson('{"summary": "Standup"}', { source: "--data" });
 * readJson('{"a": [1,]}', { source: "--data" });
 * // JsonInputError: Invalid JSON in --data at line 1, column 10: expected a value
 * ```
 */
export function readJson(input: string | Uint8Array, options: ReadJsonOptions): unknown {
  const text = typeof input === "string" ? input : decodeUtf8(input, options);
  if (text.trim() === "") throw new JsonInputError(options, "it is empty");
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  // Valid JSON within the depth limit goes straight to JSON.parse, which reads the same grammar
  // natively; the scan runs only to say what is wrong with the rest.
  if (!nestsDeeperThan(text, maxDepth)) {
    try {
      return JSON.parse(text);
    } catch {
      // Said below, in words that do not quote the input (V8's message does).
    }
  }
  const problem = findSyntaxError(text, maxDepth);
  if (problem) {
    throw new JsonInputError(options, problem.reason, lineColumn(text, problem.offset));
  }
  // The scan accepts exactly JSON's grammar, so this is not expected; should it happen, V8's
  // message is still not shown: it quotes the input.
  throw new JsonInputError(options, "not valid JSON");
}

function decodeUtf8(bytes: Uint8Array, options: ReadJsonOptions): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const before = strictUtf8.decode(bytes.subarray(0, offset));
    throw new JsonInputError(
      options,
      "the bytes are not valid UTF-8 (save the file as UTF-8)",
      lineColumn(before, before.length),
    );
  }
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let length: number;
    let min = 0x80;
    let max = 0xbf;
    if (b < 0x80) length = 1;
    else if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) min = 0xa0;
      if (b === 0xed) max = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) min = 0x90;
      if (b === 0xf4) max = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      const low = k === 1 ? min : 0x80;
      const high = k === 1 ? max : 0xbf;
      if (next === undefined || next < low || next > high) return i;
    }
    i += length;
  }
  return bytes.length;
}

/** A syntax error: where, and what, in words that hold none of the input. */
interface SyntaxProblem {
  offset: number;
  reason: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const ESCAPES = '"\\/bfnrt';
const ENDS_EARLY = "the JSON ends too early";

/**
 * The first syntax error of `text` as JSON (RFC 8259, as `JSON.parse` reads it), or `undefined`
 * when it is valid and nests at most `maxDepth` levels. Iterative: an explicit stack of open
 * containers, so no input can exhaust the call stack.
 */
function findSyntaxError(text: string, maxDepth: number): SyntaxProblem | undefined {
  const open: string[] = []; // "}" or "]" for each open container
  let i = 0;
  const fail = (reason: string, at = i): SyntaxProblem => ({
    offset: Math.min(at, text.length),
    reason: at >= text.length ? ENDS_EARLY : reason,
  });
  const skipSpace = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      i++;
    }
  };
  /** Reads a string starting at the quote at `i`; a problem, or undefined. */
  const readString = (): SyntaxProblem | undefined => {
    i++;
    for (;;) {
      if (i >= text.length) return fail(ENDS_EARLY);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c === 0x5c) {
        i++;
        if (i >= text.length) return fail(ENDS_EARLY);
        if (text[i] === "u") {
          HEX4.lastIndex = i + 1;
          if (!HEX4.test(text)) return fail("a \\u escape needs four hexadecimal digits");
          i += 5;
          continue;
        }
        if (!ESCAPES.includes(text[i])) return fail("invalid escape sequence in a string");
      } else if (c < 0x20) {
        return fail("control character in a string (write it as an escape such as \\n)");
      }
      i++;
    }
  };
  /** Reads a property name and its colon, with `i` after the opening brace or a comma. */
  const readKey = (): SyntaxProblem | undefined => {
    skipSpace();
    if (text[i] !== '"') return fail("expected a property name in double quotes");
    const problem = readString();
    if (problem) return problem;
    skipSpace();
    if (text[i] !== ":") return fail("expected ':' after a property name");
    i++;
    return undefined;
  };

  let wantValue = true;
  for (;;) {
    if (wantValue) {
      skipSpace();
      const c = text[i];
      if (c === "{" || c === "[") {
        if (open.length >= maxDepth) return fail(`nested deeper than ${maxDepth} levels`);
        i++;
        skipSpace();
        const close = c === "{" ? "}" : "]";
        if (text[i] === close) {
          i++;
          wantValue = false;
        } else {
          open.push(close);
          if (close === "}") {
            const problem = readKey();
            if (problem) return problem;
          }
        }
        continue;
      }
      if (c === '"') {
        const problem = readString();
        if (problem) return problem;
      } else if (c === "-" || (c >= "0" && c <= "9")) {
        NUMBER.lastIndex = i;
        if (!NUMBER.test(text)) return fail("invalid number", i + 1);
        i = NUMBER.lastIndex;
        // `01`, `1.` and `1e` stop the pattern early: the rest is still part of the number.
        if (i < text.length && ".eE0123456789".includes(text[i])) return fail("invalid number");
      } else {
        const word = ["true", "false", "null"].find((w) => text.startsWith(w, i));
        if (!word) return fail("expected a value");
        i += word.length;
      }
      wantValue = false;
      continue;
    }
    skipSpace();
    const close = open.at(-1);
    if (close === undefined) {
      return i < text.length ? fail("unexpected text after the JSON value") : undefined;
    }
    if (text[i] === close) {
      open.pop();
      i++;
    } else if (text[i] === ",") {
      i++;
      if (close === "}") {
        const problem = readKey();
        if (problem) return problem;
      }
      wantValue = true;
    } else {
      return fail(`expected ',' or '${close}'`);
    }
  }
}

/** Line and column (both from 1, the column in characters) of an offset into `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const column = [...text.slice(lineStart, offset)].length + 1;
  return { line, column };
}
