/**
 * The flags of a catalogue method's command: a flag for each path parameter, each query
 * parameter and each top-level body field whose value fits on a command line (text, a number,
 * true/false, one of a set, or a list of those, given once per item). The rest of a body goes in
 * `--data`. A flag is the field's name in kebab-case (`start_time` → `--start-time`); a name
 * that clashes with a flag hark already has (`--format`, `--data`…) or with another field of the
 * method gets its place in front (`--query-type`, `--body-type`).
 *
 * Each flag carries a {@link ParamSpec}, so its value is read and checked by the parameter
 * machinery the shortcuts use, and described the same way in help.
 *
 * @module
 */

import type { ParamSpec } from "../shortcuts/definition.ts";
import type { CatalogueField, CatalogueMethod, Place } from "./format.ts";

/** A flag of a method's command. */
export interface MethodFlag {
  /** The flag's name without dashes: `start-time`. */
  name: string;
  /** Where its value goes. */
  place: Place;
  /** The field it sets (its wire name is `field.name`). */
  field: CatalogueField;
  /** How a value is read and checked (for a list, each item). */
  param: ParamSpec;
  /** Whether the flag takes a list, one item per use. */
  repeatable: boolean;
}

/** Whether a field's value is written on a command line as one word. */
function scalar(field: CatalogueField): boolean {
  return ["string", "number", "integer", "boolean", "enum"].includes(field.type);
}

/** The flag name of a wire name: `start_time` → `start-time`, `userId` → `user-id`. */
export function flagNameOf(wireName: string): string {
  return wireName.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/_/g, "-").toLowerCase();
}

/** The parameter of a scalar field, for reading and describing one value. */
function paramOf(name: string, field: CatalogueField, required: boolean): ParamSpec {
  const base = {
    name,
    description: field.description || field.name,
    required,
    ...(field.default !== undefined ? { default: field.default } : {}),
  };
  switch (field.type) {
    case "number":
      return { ...base, type: "number" };
    case "integer":
      return { ...base, type: "int" };
    case "boolean":
      return { ...base, type: "bool" };
    case "enum":
      return { ...base, type: "enum", allowed: field.values ?? [] };
    default:
      return { ...base, type: "string" };
  }
}

/**
 * The flags of a method.
 *
 * @param method the method
 * @param reserved flag names the command already has (global ones, `data`, `params`…)
 * @returns the flags: path parameters, then query parameters, then body fields
 */
export function methodFlags(method: CatalogueMethod, reserved: ReadonlySet<string>): MethodFlag[] {
  const candidates: { place: Place; field: CatalogueField }[] = [
    ...method.pathParams.map((field) => ({ place: "path" as const, field })),
    ...method.query.map((field) => ({ place: "query" as const, field })),
    ...(method.body ?? []).map((field) => ({ place: "body" as const, field })),
  ].filter(({ field }) =>
    scalar(field) || (field.type === "array" && field.items !== undefined && scalar(field.items))
  );
  const count = new Map<string, number>();
  for (const { field } of candidates) {
    const name = flagNameOf(field.name);
    count.set(name, (count.get(name) ?? 0) + 1);
  }
  const flags: MethodFlag[] = [];
  const taken = new Set(reserved);
  for (const { place, field } of candidates) {
    const plain = flagNameOf(field.name);
    const name = taken.has(plain) || (count.get(plain) ?? 0) > 1 ? `${place}-${plain}` : plain;
    // Still taken (a field named like another's prefixed name): only --data / --params set it.
    if (taken.has(name)) continue;
    taken.add(name);
    const repeatable = field.type === "array";
    const item = repeatable && field.items
      ? { ...field.items, description: field.description }
      : field;
    flags.push({
      name,
      place,
      field,
      param: paramOf(name, item, place === "path" || field.required),
      repeatable,
    });
  }
  return flags;
}
