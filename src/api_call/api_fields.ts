/**
 * gh-style field flags of a raw call: `-f key=value` (a string) and `-F key=value` (typed:
 * `true`, `false`, `null` and numbers as JSON reads them, `@file` the file's text). A GET or
 * DELETE sends them as query parameters, other methods as the JSON body's top-level keys.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import type { ApiRequest } from "../http/request.ts";
import { readLocalInput } from "../json/read_local_input.ts";

/** A field value: what `-f` and `-F` give. */
export type FieldValue = string | number | boolean | null;

/** One field flag as typed. */
export interface FieldFlag {
  /** `-f` (`raw`: always a string) or `-F` (`typed`). */
  kind: "raw" | "typed";
  /** The flag's value, `key=value`. */
  text: string;
}

/** The flag each kind is typed with, for messages. */
const FLAG_OF = { raw: "-f/--raw-field", typed: "-F/--field" } as const;

/**
 * Reads the field flags into keys and values, in order (a later key replaces an earlier one).
 *
 * @param ctx the context (`@file` of `-F`)
 * @param fields the flags as typed
 * @returns the fields
 * @throws {ValidationError} naming the flag when one has no `=` or an empty key, or its file
 *   cannot be read
 */
export async function readFields(
  ctx: Context,
  fields: readonly FieldFlag[],
): Promise<Map<string, FieldValue>> {
  const result = new Map<string, FieldValue>();
  for (const { kind, text } of fields) {
    const flag = FLAG_OF[kind];
    const cut = text.indexOf("=");
    if (cut <= 0) {
      throw new ValidationError(
        `Invalid value ${JSON.stringify(text)} for ${flag}: expected key=value`,
        { param: flag, suggestion: `Give a field such as ${flag.slice(0, 2)} page_size=50` },
      );
    }
    const key = text.slice(0, cut);
    const raw = text.slice(cut + 1);
    result.set(key, kind === "raw" ? raw : await typedValue(ctx, raw, flag));
  }
  return result;
}

async function typedValue(ctx: Context, raw: string, flag: string): Promise<FieldValue> {
  if (raw === "true") return true;
  if (raw === "false") return false;
  if (raw === "null") return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw) && Number.isFinite(Number(raw))) {
    return Number(raw);
  }
  if (raw.startsWith("@")) {
    const bytes = await readLocalInput(ctx, { path: raw.slice(1) }, flag);
    return new TextDecoder().decode(bytes);
  }
  return raw;
}

/**
 * Puts fields into a request: into the query of a GET or DELETE (replacing a parameter of the
 * same name; `null` leaves it out), into the JSON body of other methods.
 *
 * @param request the request built from the other arguments
 * @param fields from {@link readFields}
 * @returns the request with the fields
 * @throws {ValidationError} naming `--data` when a body was given with it too, or when the body
 *   is not a JSON object
 */
export function applyFields(request: ApiRequest, fields: Map<string, FieldValue>): ApiRequest {
  if (fields.size === 0) return request;
  if (request.method === "GET" || request.method === "DELETE") {
    const cut = request.path.indexOf("?");
    const path = cut < 0 ? request.path : request.path.slice(0, cut);
    const query = new URLSearchParams(cut < 0 ? "" : request.path.slice(cut + 1));
    for (const [key, value] of fields) {
      query.delete(key);
      if (value !== null) query.append(key, String(value));
    }
    const search = query.toString();
    return { ...request, path: search === "" ? path : `${path}?${search}` };
  }
  if (request.body !== undefined) {
    throw new ValidationError("Cannot give both --data and fields (-f/-F) for the body", {
      param: "--data",
      suggestion: "Put every key in --data, or give every key as a field",
    });
  }
  return { ...request, body: Object.fromEntries(fields) };
}
