/**
 * A JSON value given on the command line (or as a tool's argument) the way `hark api` takes
 * its `--params` and `--data`: inline, `@file`, or `-` for stdin.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { readJson } from "../json/read_json.ts";
import { readLocalInput } from "../json/read_local_input.ts";

/**
 * Reads a JSON flag value: inline JSON, `@file`, or `-` for stdin; a file or stdin at most
 * `MAX_INPUT_BYTES` (10 MiB), a file only when it is a regular file.
 *
 * @param ctx the context (files, stdin)
 * @param value the flag's value
 * @param flag the flag, for messages (`--data`)
 * @returns the parsed JSON
 * @throws {ValidationError} naming the flag, and the line and column of a syntax error
 */
export async function readJsonFlag(ctx: Context, value: string, flag: string): Promise<unknown> {
  let input: string | Uint8Array = value;
  let source = flag;
  if (value === "-") {
    if (ctx.stdin.isTerminal) {
      throw new ValidationError(`Cannot read ${flag} from stdin: stdin is a terminal`, {
        param: flag,
        suggestion: `Pipe the JSON in, or pass it inline or as ${flag} @file`,
      });
    }
    input = await readLocalInput(ctx, { stdin: true }, flag);
    source = `${flag} (stdin)`;
  } else if (value.startsWith("@")) {
    const path = value.slice(1);
    input = await readLocalInput(ctx, { path }, flag);
    source = `${flag} (file "${path}")`;
  }
  return readJson(input, { source, param: flag });
}
