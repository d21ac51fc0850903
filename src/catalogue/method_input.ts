/**
 * A method's values as the command line gives them: its flags, `--params` (query parameters as
 * a JSON object) and `--data` (the body as a JSON object), each inline, `@file` or `-` for stdin.
 * A flag overrides the field of the same name in `--params` or `--data`.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { readJsonFlag } from "../api_call/read_json_flag.ts";
import { ValidationError } from "../errors/mod.ts";
import { isObject, type JsonObject } from "../json/fields.ts";
import { parseParamValue } from "../shortcuts/params.ts";
import type { Place } from "./format.ts";
import type { MethodFlag } from "./method_flags.ts";
import type { FieldLabel, MethodInput } from "./method_request.ts";

/** What the command line gave a method. */
export interface CommandValues {
  /** Flag values by flag name, as parsed (a list for a repeatable flag). */
  flags: Record<string, string | boolean | string[] | undefined>;
  /** `--params`: JSON, `@file` or `-`. */
  params?: string;
  /** `--data`: JSON, `@file` or `-`. */
  data?: string;
}

/** Reads `--params` or `--data`: a JSON object. */
async function readObject(ctx: Context, value: string, flag: string): Promise<JsonObject> {
  const json = await readJsonFlag(ctx, value, flag);
  if (!isObject(json)) {
    throw new ValidationError(
      `Invalid ${flag}: expected a JSON object of ${
        flag === "--data" ? "body fields" : "query parameters"
      }`,
      { param: flag, suggestion: `Give an object such as '{"page_size": 50}'` },
    );
  }
  return json;
}

/**
 * The values of a method's command line, typed: flags read by their parameters (a number is a
 * number, true/false a boolean), over `--params` and `--data`.
 *
 * @param ctx the context (files, stdin)
 * @param flags the method's flags
 * @param values what the command line gave
 * @throws {ValidationError} naming the flag: a bad value, unreadable or non-object JSON, both
 *   `--params` and `--data` on stdin
 */
export async function commandInput(
  ctx: Context,
  flags: readonly MethodFlag[],
  values: CommandValues,
): Promise<MethodInput> {
  if (values.params === "-" && values.data === "-") {
    throw new ValidationError("Only one of --params and --data can read stdin", {
      param: "--data",
      suggestion: "Pass the other one inline or as @file",
    });
  }
  const query = values.params === undefined
    ? undefined
    : await readObject(ctx, values.params, "--params");
  const body = values.data === undefined ? undefined : await readObject(ctx, values.data, "--data");
  const input: Record<Place, JsonObject | undefined> = { path: undefined, query, body };
  for (const flag of flags) {
    const raw = values.flags[flag.name];
    if (raw === undefined || typeof raw === "boolean") continue;
    const items = Array.isArray(raw) ? raw : [raw];
    const parsed = [];
    for (const item of items) parsed.push(await parseParamValue(ctx, flag.param, item));
    const target = input[flag.place] ?? {};
    target[flag.field.name] = flag.repeatable ? parsed : parsed[0];
    input[flag.place] = target;
  }
  return input;
}

/**
 * How the command line names a field in errors: a field with a flag by its flag, another by the
 * JSON flag that carries it.
 *
 * @param flags the method's flags
 */
export function commandLabel(flags: readonly MethodFlag[]): FieldLabel {
  return (place, path) => {
    const flag = flags.find((f) => f.place === place && f.field.name === path);
    if (flag) return { label: `--${flag.name} (${place} "${path}")`, param: `--${flag.name}` };
    if (place === "path") return { label: `path parameter "${path}"`, param: path };
    const carrier = place === "body" ? "--data" : "--params";
    return { label: `${carrier} field "${path}"`, param: carrier };
  };
}
