/**
 * `--fields a,b`: each record of a command's output cut down to the named fields, in every
 * format (JSON, NDJSON, CSV, table).
 *
 * @module
 */

import { ValidationError } from "../errors/hark_error.ts";
import { isObject } from "../json/fields.ts";
import { terminalSafe } from "./terminal_safe.ts";

/** What a field name may be: a JSON key as hark's output writes them. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads the value of `--fields`: names separated by commas, spaces around them ignored.
 *
 * @param text the flag's value, such as `event_id,summary`
 * @returns the names, in order, each once
 * @throws {ValidationError} naming `--fields` when the list is empty or a name is not a field
 *   name
 * @example
 * ```ts
 * parseFields("event_id, summary"); // ["event_id", "summary"]
 * ```
 */
export function parseFields(text: string): string[] {
  const names = text.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const bad = names.find((name) => !FIELD_NAME.test(name));
  if (names.length === 0 || bad !== undefined) {
    const what = bad === undefined ? "no field names" : `bad field name ${quoted(bad)}`;
    throw new ValidationError(`Invalid --fields ${quoted(text)}: ${what}`, {
      param: "--fields",
      suggestion: "Give field names separated by commas, such as --fields event_id,summary",
    });
  }
  return [...new Set(names)];
}

/**
 * Projects records to the fields of `--fields`, checking the names once, on the first records
 * seen: a name is known when a declared column reads it or one of those records has it.
 */
export class FieldProjection {
  readonly #fields: readonly string[];
  readonly #declared: readonly string[];
  #checked = false;

  /**
   * @param fields the names asked for ({@link parseFields})
   * @param declared the fields the command declares (its table columns that read a field)
   */
  constructor(fields: readonly string[], declared: readonly string[] = []) {
    this.#fields = fields;
    this.#declared = declared;
  }

  /** The names asked for, in order. */
  get fields(): readonly string[] {
    return this.#fields;
  }

  /**
   * Projects each record (an object) to the fields asked for, in their order; a record without
   * a field has none in its projection; anything that is not an object is left as it is.
   *
   * @param items the records of one batch
   * @throws {ValidationError} listing the known fields when a name is in no declared column and
   *   in none of the first records
   */
  project(items: readonly unknown[]): unknown[] {
    const records = items.filter(isObject);
    if (!this.#checked && records.length > 0) {
      this.#checked = true;
      this.#check(records);
    }
    return items.map((item) => isObject(item) ? this.#pick(item) : item);
  }

  #pick(record: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const name of this.#fields) {
      if (Object.hasOwn(record, name)) out[name] = record[name];
    }
    return out;
  }

  #check(records: readonly Record<string, unknown>[]): void {
    const known = new Set(this.#declared);
    for (const record of records) for (const key of Object.keys(record)) known.add(key);
    const unknown = this.#fields.filter((name) => !known.has(name));
    if (unknown.length === 0) return;
    const names = unknown.map(quoted).join(", ");
    const list = [...known].sort().map((name) => terminalSafe(name, { breaks: "space" }));
    throw new ValidationError(
      `Unknown field${unknown.length === 1 ? "" : "s"} ${names} for --fields; known fields: ` +
        list.join(", "),
      { param: "--fields", suggestion: `Choose among: ${list.join(", ")}` },
    );
  }
}

function quoted(text: string): string {
  return JSON.stringify(terminalSafe(text, { breaks: "space" }));
}
