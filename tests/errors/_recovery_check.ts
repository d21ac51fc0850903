/**
 * What makes a recovery command good, for the recovery tests: it runs as printed (no
 * placeholders a shell would read as redirections, a hark command line the real parser accepts
 * and that names a real command), and the recovery commands written in hark's source.
 *
 * @module
 */

import { buildRoot } from "../../src/cli/root.ts";
import { parseArgv } from "../../src/cli/parse_argv.ts";

/**
 * Shell commands other than hark that a recovery may name, each a pattern of the whole command:
 * unsetting a bad hark variable, unlocking the macOS keychain, and opening the config file in an
 * editor.
 */
const OTHER_COMMANDS: readonly RegExp[] = [
  /^unset HARK_[A-Z_]+$/,
  /^security unlock-keychain \S+$/,
  /^\$\{EDITOR:-vi\} \S+$/,
];

/**
 * Splits a command line into words as a POSIX shell would, for the simple lines recoveries are:
 * single and double quotes, backslashes, and a `#` comment to the end. Anything a shell would
 * treat as more than words (pipes, redirections, `;`, `&`, substitutions, globs of `<…>`) is
 * reported, never split.
 *
 * @param line the command line
 * @returns the words, or a problem
 */
export function shellWords(line: string): { words: string[] } | { problem: string } {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === " " || c === "\t") {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    if (c === "#" && word === undefined) break;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { problem: "an unclosed single quote" };
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
      continue;
    }
    if (c === '"') {
      let text = "";
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if ("$`".includes(line[i])) return { problem: `"${line[i]}" inside double quotes` };
        if (line[i] === "\\" && i + 1 < line.length) i++;
        text += line[i];
      }
      if (i >= line.length) return { problem: "an unclosed double quote" };
      word = (word ?? "") + text;
      continue;
    }
    if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
      continue;
    }
    if ("<>|;&`$(){}*?[]".includes(c)) {
      return { problem: `"${c}" would be read by the shell (a placeholder or an operator?)` };
    }
    word = (word ?? "") + c;
  }
  if (word !== undefined) words.push(word);
  return { words };
}

/**
 * Why a recovery command cannot be run as printed, or `undefined` when it can: a hark command
 * (optionally after `NAME=value` assignments of hark variables) must be accepted by the real
 * parser, without errors, and name a command below the root (`hark --help` aside); other
 * commands must be one of {@link OTHER_COMMANDS}.
 *
 * @param command the recovery command
 */
export async function whyNotRunnable(command: string): Promise<string | undefined> {
  if (command.trim() === "") return "the command is empty";
  if (OTHER_COMMANDS.some((pattern) => pattern.test(command))) return undefined;
  const split = shellWords(command);
  if ("problem" in split) return split.problem;
  const words = [...split.words];
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    if (!words[0].startsWith("HARK_")) return `"${words[0]}" is not a hark variable`;
    words.shift();
  }
  if (words[0] !== "hark") return `"${words[0] ?? ""}" is neither hark nor a known command`;
  const parsed = await parseArgv(buildRoot(), words.slice(1));
  if (parsed.error) return `the parser refuses it: ${parsed.error.message}`;
  if (parsed.chain.length < 2 && !(parsed.help && words.length === 2)) {
    return "it names no command";
  }
  return undefined;
}

/** A string or template literal of a source file. */
export interface SourceLiteral {
  /** The file. */
  file: string;
  /** The 1-based line where it starts. */
  line: number;
  /** Its text, each `${…}` replaced by `\u0000`. */
  text: string;
  /** The source of each `${…}`, in order. */
  expressions: string[];
  /** The source before it, from the start of the file. */
  before: string;
}

/**
 * The string and template literals of a TypeScript file, comments skipped, nested templates
 * inside `${…}` included as literals of their own. A small lexer: regular expression literals
 * are recognised only well enough for hark's own sources (after `(`, `=`, `,`, `:`, `!`, `&`,
 * `|`, `?`, `{`, `;`, `return`).
 *
 * @param file the file's path, for reports
 * @param source its text
 */
export function sourceLiterals(file: string, source: string): SourceLiteral[] {
  const found: SourceLiteral[] = [];
  const lineAt = (index: number) => source.slice(0, index).split("\n").length;
  // Reads code from `i` until `stop` (a closing brace at depth 0 when inside `${…}`).
  const code = (start: number, insideTemplate: boolean): number => {
    let depth = 0;
    let i = start;
    while (i < source.length) {
      const c = source[i];
      if (c === "/" && source[i + 1] === "/") {
        i = source.indexOf("\n", i);
        if (i < 0) return source.length;
        continue;
      }
      if (c === "/" && source[i + 1] === "*") {
        i = source.indexOf("*/", i + 2) + 2;
        continue;
      }
      if (c === "/" && regexAllowed(source, i)) {
        i = skipRegex(source, i);
        continue;
      }
      if (c === '"' || c === "'") {
        let j = i + 1;
        let text = "";
        while (j < source.length && source[j] !== c) {
          if (source[j] === "\\") {
            text += unescape(source[j + 1]);
            j += 2;
            continue;
          }
          text += source[j++];
        }
        found.push({ file, line: lineAt(i), text, expressions: [], before: source.slice(0, i) });
        i = j + 1;
        continue;
      }
      if (c === "`") {
        i = template(i);
        continue;
      }
      if (c === "{") depth++;
      if (c === "}") {
        if (insideTemplate && depth === 0) return i;
        depth--;
      }
      i++;
    }
    return i;
  };
  const template = (start: number): number => {
    let text = "";
    const expressions: string[] = [];
    let i = start + 1;
    while (i < source.length && source[i] !== "`") {
      if (source[i] === "\\") {
        text += unescape(source[i + 1]);
        i += 2;
        continue;
      }
      if (source[i] === "$" && source[i + 1] === "{") {
        const end = code(i + 2, true);
        expressions.push(source.slice(i + 2, end));
        text += "\u0000";
        i = end + 1;
        continue;
      }
      text += source[i++];
    }
    found.push({ file, line: lineAt(start), text, expressions, before: source.slice(0, start) });
    return i + 1;
  };
  code(0, false);
  return found;
}

function unescape(c: string | undefined): string {
  return ({ n: "\n", t: "\t", r: "\r" } as Record<string, string>)[c ?? ""] ?? c ?? "";
}

function regexAllowed(source: string, index: number): boolean {
  const before = source.slice(Math.max(0, index - 12), index).trimEnd();
  return before === "" || /[(=,:!&|?{};[]$/.test(before) || /\breturn$/.test(before);
}

function skipRegex(source: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < source.length) {
    const c = source[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) break;
    else if (c === "\n") return start + 1; // not a regex after all
    i++;
  }
  i++;
  while (/[a-z]/.test(source[i] ?? "")) i++;
  return i;
}

/**
 * Whether a literal is written where a recovery command goes: the nearest of the words
 * `command`, `fix` and `recovery(` before it comes after any `examples`, `suggestion`,
 * `description` or `message` (which hold documentation and prose, where placeholders belong).
 *
 * @param literal the literal
 */
export function isRecoveryCommand(literal: SourceLiteral): boolean {
  const window = literal.before.slice(-400);
  const last = (pattern: RegExp) => {
    let index = -1;
    for (const match of window.matchAll(pattern)) index = match.index!;
    return index;
  };
  const recovery = Math.max(
    last(/\bcommand\b\s*(:|\?\?|=|\))/g),
    last(/\bfix\b\s*:/g),
    last(/\brecovery\(/g),
  );
  const prose = last(/\b(examples|suggestion|description|message|notes)\b/g);
  return recovery >= 0 && recovery > prose;
}
