/**
 * The command of one API method, `hark <service> <resource> <method>`: a flag per parameter and
 * per flat body field ({@link methodFlags}), `--params` and `--data` for the rest, `--page-all`
 * where the method returns pages, an example built from its required parameters, and notes
 * (the request it sends, its id, its identities, the body fields only `--data` sets).
 *
 * @module
 */

import type { CatalogueField, CatalogueMethod } from "../../catalogue/format.ts";
import { type MethodFlag, methodFlags } from "../../catalogue/method_flags.ts";
import { shellQuote } from "../../errors/shell_quote.ts";
import type { CommandSpec, FlagSpec } from "../command_spec.ts";
import { GLOBAL_FLAGS } from "../globals.ts";

/** The flags every method command may have besides its fields'. */
export const METHOD_OWN_FLAGS = {
  params: {
    name: "params",
    value: "<json>",
    description: "query parameters as a JSON object, @file, or - for stdin (flags override it)",
  },
  data: {
    name: "data",
    value: "<json>",
    description: "the body as a JSON object, @file, or - for stdin (flags override its fields)",
  },
  pageAll: {
    name: "page-all",
    description: "follow page_token to the last page and write every item",
  },
  maxPages: {
    name: "max-pages",
    value: "<n>",
    description: "with --page-all, stop after this many pages (default 1000)",
  },
} as const satisfies Record<string, FlagSpec>;

/**
 * The flag names a method's fields may not take: the global flags (`--format`, `--no-color`…),
 * `--help`, `--version` and {@link METHOD_OWN_FLAGS}.
 */
export function reservedFlagNames(): Set<string> {
  const names = new Set(["help", "version"]);
  for (const flag of GLOBAL_FLAGS) {
    names.add(flag.name);
    if (flag.negated) names.add(`no-${flag.name}`);
  }
  for (const flag of Object.values(METHOD_OWN_FLAGS)) names.add(flag.name);
  return names;
}

/** A field's type in words, for help. */
function typeWords(field: CatalogueField): string {
  switch (field.type) {
    case "string":
      return "text";
    case "integer":
      return "whole number";
    case "boolean":
      return "true or false";
    case "enum":
      return "one of the choices";
    case "array":
      return `a list of ${field.items ? typeWords(field.items) : "values"}`;
    default:
      return field.type;
  }
}

/** The command-line flag of a method flag. */
function flagSpecOf(flag: MethodFlag): FlagSpec {
  const item = flag.param;
  const facts = [`${flag.place} ${flag.field.name}`, typeWords(flag.field)];
  if (item.required) facts.push("required");
  if (item.default !== undefined) facts.push(`default: ${item.default}`);
  if (flag.repeatable) facts.push("give it once per item");
  const spec: FlagSpec = {
    name: flag.name,
    value: item.type === "bool"
      ? "<true|false>"
      : item.type === "enum"
      ? "<value>"
      : item.type === "string"
      ? "<text>"
      : "<n>",
    description: `${item.description} (${facts.join("; ")})`,
  };
  if (item.type === "enum") spec.choices = item.allowed ?? [];
  if (item.type === "bool") spec.choices = ["true", "false"];
  if (flag.repeatable) spec.repeatable = true;
  return spec;
}

/** A placeholder value of a field, for examples: `CALENDAR_ID`, the first choice, `1`. */
function sample(field: CatalogueField): unknown {
  switch (field.type) {
    case "enum":
      return field.values?.[0] ?? "";
    case "boolean":
      return true;
    case "number":
    case "integer":
      return 1;
    case "object":
      return Object.fromEntries(
        (field.fields ?? []).filter((f) => f.required).map((f) => [f.name, sample(f)]),
      );
    case "array":
      return field.items ? [sample(field.items)] : [];
    case "json":
      return {};
    default:
      return (field.name || "value").replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
  }
}

/**
 * The example of a method: its command with every required flag, and `--data` with the
 * required fields no flag sets.
 *
 * @param method the method
 * @param flags its flags
 */
export function methodExamples(method: CatalogueMethod, flags: readonly MethodFlag[]): string[] {
  const words = ["hark", ...method.command];
  for (const flag of flags.filter((f) => f.param.required)) {
    const value = sample(flag.repeatable && flag.field.items ? flag.field.items : flag.field);
    words.push(`--${flag.name}`, shellQuote(String(value)));
  }
  const flagged = new Set(flags.filter((f) => f.place === "body").map((f) => f.field.name));
  const rest = (method.body ?? []).filter((f) => f.required && !flagged.has(f.name));
  if (rest.length > 0) {
    words.push(
      "--data",
      shellQuote(JSON.stringify(Object.fromEntries(rest.map((f) => [f.name, sample(f)])))),
    );
  }
  const example = words.join(" ");
  const examples = [method.http === "GET" ? example : `${example} --dry-run`];
  if (method.paging) examples.push(`${example} --page-all --format ndjson`);
  return examples;
}

/**
 * The notes of a method's help: the request, its id, its identities, and the body fields only
 * `--data` sets.
 *
 * @param method the method
 * @param flags its flags
 */
export function methodNotes(method: CatalogueMethod, flags: readonly MethodFlag[]): string {
  const lines = [`Request: ${method.http} ${method.path}`];
  lines.push(`Method id: ${method.id} (every parameter: hark schema ${method.id})`);
  lines.push(
    `Identities: ${method.identities.join(", ")} (default ${method.identities[0]}` +
      (method.identities.length > 1 ? "; choose with --as)" : ")"),
  );
  const flagged = new Set(flags.filter((f) => f.place === "body").map((f) => f.field.name));
  const rest = (method.body ?? []).filter((f) => !flagged.has(f.name));
  if (rest.length > 0) {
    lines.push(
      `In --data only: ${
        rest.map((f) => `${f.name} (${typeWords(f)}${f.required ? ", required" : ""})`).join(", ")
      }`,
    );
  }
  if (method.query.length > 0 || method.body) {
    lines.push("Flags override the same fields in --params and --data.");
  }
  return lines.join("\n");
}

/**
 * The command of a method.
 *
 * @param method the method
 */
export function methodCommand(method: CatalogueMethod): CommandSpec {
  const flags = methodFlags(method, reservedFlagNames());
  const specs = flags.map(flagSpecOf);
  if (method.query.length > 0) specs.push(METHOD_OWN_FLAGS.params);
  if (method.body) specs.push(METHOD_OWN_FLAGS.data);
  if (method.paging) specs.push(METHOD_OWN_FLAGS.pageAll, METHOD_OWN_FLAGS.maxPages);
  return {
    name: method.command[2],
    description: method.summary || method.id,
    details: method.description,
    flags: specs,
    examples: methodExamples(method, flags),
    notes: methodNotes(method, flags),
    run: async (call) => (await import("./run_method.ts")).runMethod(call, method, flags),
  };
}
