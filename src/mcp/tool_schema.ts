/**
 * A shortcut as an MCP tool, generated from its declarative definition (the same source as
 * `hark schema`, help and completion): the tool's name, a description, an input JSON Schema from
 * the parameters, and hints from what the shortcut does. Pure: nothing here loads the MCP SDK.
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import {
  type AnyShortcut,
  identitiesOf,
  isDestructive,
  isIdempotent,
  type ParamSpec,
  shortcutName,
} from "../shortcuts/definition.ts";
import { TIMEZONE_PARAM } from "../shortcuts/input_sources.ts";
import { ValidationError } from "../errors/mod.ts";
import { TIME_INPUT_FORMS } from "../time/mod.ts";
import { KEY_WINDOW_MINUTES } from "./derived_key.ts";
import { FILES_FLAG, localPathOf } from "./local_files.ts";
import { addPagingArguments, outputSchemaOf } from "./tool_output.ts";

/** The subset of JSON Schema (draft 2020-12) the tools' input schemas use. */
export interface JsonSchema {
  /** The JSON type. */
  type?: "object" | "string" | "integer" | "number" | "boolean" | "array" | "null";
  /** What the value is. */
  description?: string;
  /** The values allowed. */
  enum?: string[];
  /** The value used when none is given. */
  default?: string | number | boolean;
  /** The largest number allowed. */
  maximum?: number;
  /** The properties of an object. */
  properties?: Record<string, JsonSchema>;
  /** The properties an object must have. */
  required?: string[];
  /** Whether an object may have other properties. */
  additionalProperties?: boolean;
  /** The items of an array. */
  items?: JsonSchema;
  /** Alternatives, any one of which fits. */
  anyOf?: JsonSchema[];
  /** The smallest number allowed. */
  minimum?: number;
}

/** The hints MCP hosts use to decide what to ask the person before a call. */
export interface ToolAnnotations {
  /** A human-readable title. */
  title: string;
  /** The tool changes nothing. */
  readOnlyHint: boolean;
  /** The tool may delete or overwrite data without a way back. */
  destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** The tool reaches a service outside the host (Lark). */
  openWorldHint: boolean;
}

/** A tool as `tools/list` describes it. */
export interface McpTool {
  /** `calendar_agenda`. */
  name: string;
  /** A human-readable title: `calendar +agenda`. */
  title: string;
  /** What it does, when to use it, and how it behaves. */
  description: string;
  /** The JSON Schema of its arguments. */
  inputSchema: JsonSchema & { type: "object" };
  /** The JSON Schema of its results' structured content (`tool_output.ts`). */
  outputSchema: JsonSchema & { type: "object" };
  /** Hints from what it does. */
  annotations: ToolAnnotations;
}

/** The extra arguments hark adds to a shortcut's parameters. */
export const EXTRA_ARGUMENTS = {
  /** The identity, on tools whose shortcut supports both and when the server fixed none. */
  as: "as",
  /** On tools that change something: preview the requests, send nothing. */
  dryRun: "dry_run",
  /**
   * On tools that delete or overwrite (data in Lark, or a file on this machine): the explicit
   * confirmation a person would give at a prompt.
   */
  yes: "yes",
} as const;

/** A shortcut's tool with what running it needs: which argument is which parameter. */
export interface ShortcutTool {
  /** The tool as listed. */
  tool: McpTool;
  /** The shortcut it runs. */
  shortcut: AnyShortcut;
  /** The parameter of each argument, by argument name. */
  params: ReadonlyMap<string, ParamSpec>;
  /** Whether the tool takes `as`. */
  takesAs: boolean;
  /** Whether the tool takes `dry_run` (it changes something). */
  takesDryRun: boolean;
  /** Whether the tool needs `yes: true` to run for real (it deletes or overwrites data). */
  needsYes: boolean;
  /** Whether the tool writes files on the machine hark runs on (a download). */
  writesFiles: boolean;
  /** Whether it lists rows (its shortcut streams them): paged, with `page_token`. */
  listing: boolean;
  /** The switches that let it replace a file on this machine (`force`): on, `yes` is needed. */
  replaceSwitches: string[];
  /**
   * The argument of the write's idempotency key, which the server derives from the other
   * arguments when none is given (`derived_key.ts`).
   */
  keyArgument?: string;
}

/** What shapes the tools besides the definitions. */
export interface ToolSchemaOptions {
  /** The identity fixed for the whole server (`hark mcp --as`); then no tool takes `as`. */
  identity?: Identity;
  /** The zone local times are read in when a shortcut has no `timezone` or it is not given. */
  timeZone: string;
  /**
   * The real path of the folder tools may read from and write to (`hark mcp --files`);
   * without it, arguments that name local files are refused.
   */
  files?: string;
}

/**
 * The tool name of a shortcut: service and verb without the plus sign, dashes turned into
 * underscores: `calendar_agenda`, `contact_search_user`.
 *
 * @param shortcut the definition
 */
export function toolNameOf(shortcut: Pick<AnyShortcut, "service" | "verb">): string {
  return `${shortcut.service}_${shortcut.verb.replace(/^\+/, "")}`.replace(/-/g, "_");
}

/**
 * The argument name of a parameter: `chat-id` is `chat_id` (the `--input` file accepts the same
 * spelling).
 *
 * @param param the parameter
 */
export function argumentNameOf(param: Pick<ParamSpec, "name">): string {
  return param.name.replace(/-/g, "_");
}

/**
 * Rewrites the flags of `params` named in a text (`--chat-id`) as argument names (`chat_id`), so
 * descriptions and error messages speak the tool's language. Other flags stay as they are.
 *
 * @param text the text
 * @param names the parameter names to rewrite, with `as`, `yes` and `dry-run`
 */
export function flagsToArguments(text: string, names: Iterable<string>): string {
  const known = new Set([...names, "as", "yes", "dry-run"]);
  return text.replace(
    /--([a-z][a-z0-9-]*)\b/g,
    (whole, name: string) => (known.has(name) ? argumentNameOf({ name }) : whole),
  );
}

/**
 * The JSON Schema of one parameter: its type (int as integer, bool as boolean, enum as strings
 * with their allowed set, datetime as a string in any accepted form, file as a path), its
 * default, its `maximum` for a safety limit ({@link ParamSpec.mcpMaximum}), and its description
 * with flags rewritten as arguments. A parameter that names a
 * local file says where such paths may go: inside the `--files` folder, or nowhere without it.
 *
 * @param param the parameter
 * @param describe rewrites the flags named in a text
 * @param notes where local times are read (for `datetime`); the `--files` folder, if any
 */
export function paramSchema(
  param: ParamSpec,
  describe: (text: string) => string,
  notes: { zone?: string; files?: string } = {},
): JsonSchema {
  const description = describe(param.description);
  const schema: JsonSchema = { type: "string", description };
  switch (param.type) {
    case "int":
      schema.type = "integer";
      break;
    case "number":
      schema.type = "number";
      break;
    case "bool":
      schema.type = "boolean";
      break;
    case "enum":
      schema.enum = [...(param.allowed ?? [])];
      break;
    case "datetime":
      schema.description = `${description}. Accepts ${TIME_INPUT_FORMS}${notes.zone ?? ""}`;
      break;
  }
  if (localPathOf(param) !== undefined) {
    schema.description += notes.files === undefined
      ? `. Local files are off unless hark mcp runs with ${FILES_FLAG} <folder>: until then ` +
        "this argument is refused"
      : `. A path on the machine hark runs on, inside "${notes.files}" (relative paths start ` +
        "there)";
  }
  if (param.mcpMaximum !== undefined) {
    // A safety limit only a person may raise, on the command line.
    schema.maximum = param.mcpMaximum;
    schema.description += `. At most ${param.mcpMaximum} here`;
  }
  if (param.default !== undefined) schema.default = param.default;
  return schema;
}

/**
 * Checks the arguments that have a `maximum` (a safety limit, {@link ParamSpec.mcpMaximum}),
 * given as a number or as text, the way the shortcut's binding reads them.
 *
 * @param schema the tool's input schema
 * @param values the arguments given
 * @throws {ValidationError} naming the argument and the most a call may give
 */
export function checkMaximums(schema: JsonSchema, values: Record<string, unknown>): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const given = values[name];
    const value = typeof given === "string" ? Number(given.trim()) : given;
    if (property.maximum !== undefined && typeof value === "number" && value > property.maximum) {
      throw new ValidationError(
        `Invalid argument "${name}": ${value} is more than ${property.maximum}, the most a tool ` +
          "call may ask for",
        {
          param: name,
          suggestion: `Give at most ${property.maximum}; only a person running hark on the ` +
            "command line can go further",
        },
      );
    }
  }
}

/**
 * The tool of a shortcut.
 *
 * @param shortcut the definition
 * @param options the identity fixed for the server, the server's time zone
 * @throws {Error} when two parameters have the same argument name or one takes the name of an
 *   extra argument (a mistake in the definition, caught by the registry test)
 */
export function shortcutTool(shortcut: AnyShortcut, options: ToolSchemaOptions): ShortcutTool {
  const identities = identitiesOf(shortcut);
  const takesAs = options.identity === undefined && identities.length > 1;
  const writesFiles = shortcut.params.some((p) => localPathOf(p) === "write");
  const readOnly = shortcut.effect === "read" && !writesFiles;
  const takesDryRun = !readOnly;
  const needsYes = isDestructive(shortcut);
  const replaceSwitches = shortcut.params.filter((p) => p.replacesFiles && p.type === "bool")
    .map(argumentNameOf);
  const keyArgument = shortcut.idempotencyKey === undefined
    ? undefined
    : argumentNameOf({ name: shortcut.idempotencyKey });
  const describe = (text: string) => flagsToArguments(text, shortcut.params.map((p) => p.name));
  const zoneNote = shortcut.params.some((p) => p.name === TIMEZONE_PARAM)
    ? `; local times are read in ${argumentNameOf({ name: TIMEZONE_PARAM })} when given, else in ` +
      options.timeZone
    : `; local times are read in ${options.timeZone}`;

  const properties: Record<string, JsonSchema> = {};
  const params = new Map<string, ParamSpec>();
  const add = (name: string, schema: JsonSchema) => {
    if (name in properties) {
      throw new Error(`${shortcutName(shortcut)}: two arguments are named "${name}"`);
    }
    properties[name] = schema;
  };
  for (const param of shortcut.params) {
    const name = argumentNameOf(param);
    const schema = paramSchema(param, describe, { zone: zoneNote, files: options.files });
    if (name === keyArgument) {
      schema.description = "the idempotency key: the service applies one key once. Default: " +
        "derived from the other arguments, the profile and the identity, so identical calls " +
        `within ${KEY_WINDOW_MINUTES} minutes are applied once`;
    }
    add(name, schema);
    params.set(name, param);
  }
  if (takesAs) {
    add(EXTRA_ARGUMENTS.as, {
      type: "string",
      enum: [...identities],
      default: identities[0],
      description: "who acts: user (the signed-in person) or bot (the app)",
    });
  }
  if (takesDryRun) {
    add(EXTRA_ARGUMENTS.dryRun, {
      type: "boolean",
      default: false,
      description: "return the requests it would send, and send nothing (no sign-in needed)",
    });
  }
  if ((needsYes || replaceSwitches.length > 0) && !params.has(EXTRA_ARGUMENTS.yes)) {
    add(EXTRA_ARGUMENTS.yes, {
      type: "boolean",
      default: false,
      description: shortcut.effect === "delete"
        ? "confirm the deletion: without yes: true nothing is deleted"
        : needsYes
        ? "confirm the change, which may overwrite or remove data: without yes: true nothing " +
          "is changed"
        : `confirm replacing a file already there (${replaceSwitches.join(", ")}: true): ` +
          "without yes: true no file is replaced",
    });
  }
  const listing = shortcut.stream !== undefined;
  if (listing) addPagingArguments(properties, params);
  const required = shortcut.params.filter((p) => p.required).map(argumentNameOf);
  const inputSchema: McpTool["inputSchema"] = {
    type: "object",
    properties,
    additionalProperties: false,
  };
  if (required.length > 0) inputSchema.required = required;

  return {
    tool: {
      name: toolNameOf(shortcut),
      title: `hark ${shortcutName(shortcut)}`,
      description: describeTool(shortcut, {
        takesAs,
        identity: options.identity,
        describe,
        writesFiles,
        replaceSwitches,
        keyArgument,
      }),
      inputSchema,
      outputSchema: outputSchemaOf(listing ? "listing" : "object"),
      annotations: {
        title: `hark ${shortcutName(shortcut)}`,
        readOnlyHint: readOnly,
        destructiveHint: needsYes || replaceSwitches.length > 0,
        idempotentHint: isIdempotent(shortcut),
        openWorldHint: true,
      },
    },
    shortcut,
    params,
    takesAs,
    takesDryRun,
    needsYes,
    writesFiles,
    listing,
    replaceSwitches,
    keyArgument,
  };
}

function describeTool(
  shortcut: AnyShortcut,
  options: {
    takesAs: boolean;
    identity?: Identity;
    describe: (text: string) => string;
    writesFiles: boolean;
    replaceSwitches: string[];
    keyArgument?: string;
  },
): string {
  const identities = identitiesOf(shortcut);
  const lines = [sentence(options.describe(shortcut.description))];
  const key = options.keyArgument;
  if (shortcut.effect === "read" && !options.writesFiles) {
    lines.push("Use it to look things up in Lark: it only reads and changes nothing.");
  } else if (shortcut.effect === "read") {
    const switches = options.replaceSwitches.map((s) => `${s}: true`).join(" or ");
    lines.push(
      "It reads from Lark and writes a file on the machine hark runs on, only inside the " +
        "folder the person gave hark and never a hidden one" +
        (switches === ""
          ? "."
          : `; it replaces a file already there only with ${switches} and yes: true, which ` +
            "the person you act for must have agreed to."),
    );
  } else if (shortcut.effect === "write" && !isDestructive(shortcut)) {
    lines.push(
      "It changes data in Lark: pass dry_run: true first to see the requests it would send." +
        (key !== undefined
          ? ` Identical calls within ${KEY_WINDOW_MINUTES} minutes are applied once: unless ` +
            `${key} is given, hark derives it from the arguments, the profile and the ` +
            `identity; give a new ${key} to do the same again on purpose.`
          : isIdempotent(shortcut)
          ? " Retrying it with the same arguments has no further effect."
          : ""),
    );
  } else if (shortcut.effect === "write") {
    lines.push(
      "It changes data in Lark and can overwrite or remove what was there with no way back: " +
        "it runs only with yes: true, which the person you act for must have agreed to; " +
        "dry_run: true previews it.",
    );
  } else {
    lines.push(
      "It deletes data in Lark with no way back: it runs only with yes: true, which the person " +
        "you act for must have agreed to; dry_run: true previews it.",
    );
  }
  const who = (identity: Identity) => identity === "bot" ? "the app's bot" : "the signed-in user";
  if (options.takesAs) {
    const [first, ...others] = identities;
    lines.push(
      `Acts as ${who(first)}; ` +
        others.map((other) => `as: "${other}" acts as ${who(other)}`).join("; ") + ".",
    );
  } else {
    lines.push(`Acts as ${who(options.identity ?? identities[0])}.`);
  }
  lines.push(
    `Runs \`hark ${shortcutName(shortcut)}\` with its checks, sign-in and retries; the result ` +
      "is its JSON output.",
  );
  return lines.join(" ");
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
