/**
 * Reading and writing the configuration file. Writes are atomic (`<path>.tmp`, mode 0600,
 * flushed, renamed over the target) and serialised across processes by `<path>.lock`, so a
 * reader sees the old or the new content and concurrent writers never lose each other's work.
 * A malformed file is an error naming the file and the position, and is never overwritten.
 *
 * @module
 */

import { dirname } from "node:path";
import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { type Config, OUTPUT_FORMATS } from "./config.ts";
import { resolveConfigPath } from "./config_path.ts";
import { withFileLock } from "./file_lock.ts";

/**
 * Loads the configuration; an empty one when the file does not exist.
 *
 * @param ctx the context
 * @param path the file; default {@link resolveConfigPath}
 * @throws {ValidationError} when the file is not valid JSON or not a config object
 */
export async function loadConfig(ctx: Context, path = resolveConfigPath(ctx)): Promise<Config> {
  let text: string;
  try {
    text = await ctx.fs.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw new ValidationError(`Cannot read the config file "${path}": ${describe(error)}`, {
      param: "HARK_CONFIG",
      suggestion: "Check the file's permissions, or point HARK_CONFIG at another file",
      cause: error,
    });
  }
  return parseConfig(text, path);
}

/**
 * Parses config text, checking the shape of the known keys.
 *
 * @param text the file's content
 * @param path the file's path, for messages
 * @throws {ValidationError} naming the file, line and column, or the bad key
 */
export function parseConfig(text: string, path: string): Config {
  if (text.trim() === "") {
    throw malformed(path, "the file is empty");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8 gives a position for some errors only ("Unexpected token 'x', ... is not valid JSON"
    // has none), so find the first syntax error ourselves.
    const position = /position (\d+)/.exec(describe(error));
    const offset = syntaxErrorOffset(text) ?? (position ? Number(position[1]) : text.length);
    const where = lineColumn(text, offset);
    const reason = describe(error)
      .replace(/\s*\(line \d+ column \d+\)/, "")
      // Drop V8's quote of the file's content: it may hold a secret.
      .replace(/,\s*(\.\.\.)?"[\s\S]*is not valid JSON$/, "");
    throw malformed(
      path,
      `line ${where.line}, column ${where.column}: ${reason}`,
      error,
    );
  }
  if (!isObject(value)) throw malformed(path, "the top level is not a JSON object");
  for (const key of ["apps", "users", "preferences"] as const) {
    if (value[key] !== undefined && !isObject(value[key])) {
      throw malformed(path, `"${key}" must be an object`);
    }
  }
  for (const key of ["apps", "users"] as const) {
    for (const [name, entry] of Object.entries((value[key] ?? {}) as Record<string, unknown>)) {
      if (!isObject(entry)) throw malformed(path, `"${key}.${name}" must be an object`);
    }
  }
  const preferences = (value.preferences ?? {}) as Record<string, unknown>;
  const format = preferences.output_format;
  if (format !== undefined && !(OUTPUT_FORMATS as readonly unknown[]).includes(format)) {
    throw malformed(
      path,
      `"preferences.output_format" must be one of ${OUTPUT_FORMATS.join(", ")}, not ${
        JSON.stringify(format)
      }`,
    );
  }
  if (preferences.color !== undefined && typeof preferences.color !== "boolean") {
    throw malformed(path, `"preferences.color" must be true or false`);
  }
  if (value.active_profile !== undefined && typeof value.active_profile !== "string") {
    throw malformed(path, `"active_profile" must be a string`);
  }
  return value as Config;
}

/**
 * Reads, changes and writes the configuration under the config lock. `change` may mutate the
 * config it is given or return a new one. Unknown keys survive.
 *
 * @param ctx the context
 * @param change the modification
 * @param path the file; default {@link resolveConfigPath}
 * @returns the config as written
 * @throws {ValidationError} when the existing file is malformed (it is left untouched)
 */
export async function updateConfig(
  ctx: Context,
  change: (config: Config) => Config | void | Promise<Config | void>,
  path = resolveConfigPath(ctx),
): Promise<Config> {
  const folder = dirname(path);
  if (!(await ctx.fs.exists(folder))) await ctx.fs.mkdir(folder, 0o700);
  return await withFileLock(ctx, `${path}.lock`, async () => {
    const current = await loadConfig(ctx, path);
    const next = (await change(current)) ?? current;
    await ctx.fs.writeFileAtomic(path, JSON.stringify(next, null, 2) + "\n", 0o600);
    return next;
  });
}

function malformed(path: string, reason: string, cause?: unknown): ValidationError {
  return new ValidationError(`Cannot parse the config file "${path}": ${reason}`, {
    param: "HARK_CONFIG",
    suggestion: "Fix the file by hand (hark never overwrites a malformed config), or move it away",
    cause,
  });
}

/**
 * The offset of the first JSON syntax error in `text` (its length when the text ends early), or
 * `undefined` when none is found.
 */
function syntaxErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxAt(i);
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const expect = (char: string) => {
    space();
    if (text[i] !== char) fail();
    i++;
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= text.length) fail();
      const char = text[i];
      if (char === '"') {
        i++;
        return;
      }
      if (char === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
          continue;
        }
        if (i >= text.length || !'"\\/bfnrt'.includes(text[i])) fail();
      } else if (char.charCodeAt(0) < 0x20) {
        fail();
      }
      i++;
    }
  };
  const container = (close: string, member: () => void) => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[i] === ",") i++;
      else if (text[i] === close) {
        i++;
        return;
      } else fail();
    }
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === "{") {
      return container("}", () => {
        string();
        expect(":");
        value();
      });
    }
    if (char === "[") return container("]", value);
    if (char === '"') return string();
    const number = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    number.lastIndex = i;
    if (number.test(text)) {
      i = number.lastIndex;
      return;
    }
    const word = ["true", "false", "null"].find((w) => text.startsWith(w, i));
    if (!word) fail();
    i += word!.length;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
  } catch (error) {
    if (error instanceof SyntaxAt) return Math.min(error.offset, text.length);
    return undefined; // Nesting too deep for this scanner: use V8's answer.
  }
  return undefined;
}

/** Thrown inside {@link syntaxErrorOffset} to stop at the first error. */
class SyntaxAt {
  constructor(readonly offset: number) {}
}

function lineColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - before.lastIndexOf("\n");
  return { line, column };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
