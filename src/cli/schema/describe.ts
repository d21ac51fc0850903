/**
 * `hark schema [service] [verb]`: a JSON description of every command and shortcut, so an agent
 * can discover hark without reading help text.
 *
 * @module
 */

import {
  ERROR_TYPES,
  type ErrorType,
  EXIT_CODE_MEANINGS,
  ExitCode,
  ValidationError,
} from "../../errors/mod.ts";
import {
  type AnyShortcut,
  identitiesOf,
  isDestructive,
  isIdempotent,
  optionalScopesFor,
  scopesFor,
  shortcutName,
} from "../../shortcuts/definition.ts";
import { envVarOf, flagOf } from "../../shortcuts/params.ts";
import { VERSION } from "../../version.ts";
import { type CommandSpec, flagName, type FlagSpec, flagUsage } from "../command_spec.ts";
import { loadCommandTree, type TreeNode } from "../command_tree.ts";
import { INPUT_FLAG } from "../shortcut_commands.ts";
import type { ApiMethodSchema } from "./describe_api.ts";

/** A shortcut parameter. */
export interface ParamSchema {
  /** The parameter name, `chat-id`. */
  name: string;
  /** The flag, `--chat-id`. */
  flag: string;
  /** `string`, `int`, `bool`, `enum`, `datetime` or `file`. */
  type: string;
  /** What it is. */
  description: string;
  /** Whether it must be given. */
  required: boolean;
  /** The default, when there is one. */
  default?: string | number | boolean;
  /** The allowed values of an enum. */
  allowed?: string[];
  /** The environment variable it may come from. */
  env: string;
  /** Whether piped stdin may supply it. */
  stdin?: boolean;
  /**
   * The value names a file on this machine that the shortcut reads (an upload) or writes (a
   * download); `hark mcp` lets tools use it only inside its `--files` folder.
   */
  local_path?: "read" | "write";
  /** Turned on, it lets the shortcut replace a file already on this machine. */
  replaces_files?: boolean;
  /** For a safety limit (`--max-pieces`): the most an MCP tool call may give. */
  mcp_maximum?: number;
}

/** A shortcut. */
export interface ShortcutSchema {
  /** Tells shortcuts from API methods. */
  kind: "shortcut";
  /** `calendar +agenda`. */
  name: string;
  /** `calendar`. */
  service: string;
  /** `+agenda`. */
  verb: string;
  /** What it does. */
  description: string;
  /** Identities supported, the default first. */
  identities: string[];
  /** The scopes each identity needs, all of them. */
  scopes: { user?: string[]; bot?: string[] };
  /**
   * Per identity, scopes that unlock part of the output (Lark's field permissions, name
   * lookups): without them the shortcut runs, leaves those parts out and warns.
   */
  optional_scopes?: { user?: string[]; bot?: string[] };
  /**
   * Calls made with the app's tenant token whatever the identity (Lark takes uploads only with
   * it): when, and the scopes the app must have enabled for them.
   */
  tenant_calls?: { when: string; scopes: string[] };
  /** Scopes Lark accepts instead of a listed one (its docs' "any one of"), by the listed one. */
  scope_alternatives?: Record<string, string[]>;
  /** What it does to the service's data: `read`, `write` or `delete`. */
  effect: string;
  /** Whether running it twice has the effect of running it once. */
  idempotent: boolean;
  /** Whether it can destroy data without a way back (`hark mcp` asks for `yes: true`). */
  destructive: boolean;
  /** The parameters; every shortcut also takes the `shortcut_options` of the schema. */
  params: ParamSchema[];
  /** Groups of parameters (by name) of which exactly one must be given. */
  one_of?: string[][];
  /** Example command lines. */
  examples: string[];
}

/** A flag of a system command. */
export interface OptionSchema {
  /** As declared, `--scope <scope>`. */
  flags: string;
  /** The long name without dashes, `scope`. */
  name: string;
  /** What it does. */
  description: string;
  /** `bool` for a switch, `string` when it takes a value. */
  type: "bool" | "string";
  /** Whether it must be given. */
  required: boolean;
  /** The default, when there is one (`false` for a `--no-x` switch: not given). */
  default?: unknown;
  /** The allowed values, when restricted. */
  allowed?: string[];
  /** May be given several times; the values make a list. */
  repeatable?: boolean;
  /** For `--no-x`: the setting it turns off (`x`), which is on unless it is given. */
  negates?: string;
}

/** A positional argument of a system command. */
export interface ArgumentSchema {
  /** The name. */
  name: string;
  /** Whether it must be given. */
  required: boolean;
  /** Whether it takes several values. */
  variadic: boolean;
  /** What it is. */
  description: string;
}

/** A system command, with its sub-commands. */
export interface CommandSchema {
  /** `config set`. */
  name: string;
  /** What it does. */
  description: string;
  /** Positional arguments. */
  arguments: ArgumentSchema[];
  /** Its own flags (the global ones are listed once, at the top). */
  options: OptionSchema[];
  /** Example command lines. */
  examples: string[];
  /** Sub-commands. */
  commands: CommandSchema[];
}

/** A service: its shortcuts and its API methods. */
export interface ServiceSchema {
  /** `calendar`. */
  name: string;
  /** What it covers. */
  description: string;
  /** Example command lines. */
  examples: string[];
  /** Its shortcuts. */
  shortcuts: ShortcutSchema[];
  /** Its API methods (`hark <service> <resource> <method>`), when the catalogue was read. */
  methods?: ApiMethodSchema[];
}

/** An exit code, with the error types that exit with it. */
export interface ExitCodeSchema {
  /** The exit code. */
  code: number;
  /** Its name in hark's code, `Validation`. */
  name: string;
  /** What it means. */
  meaning: string;
  /** The error types (`error.type` of the envelope) that may exit with it. */
  error_types: { type: ErrorType; meaning: string }[];
}

/** The whole of hark. */
export interface HarkSchema {
  /** `hark`. */
  name: string;
  /** The version. */
  version: string;
  /** Flags every command accepts. */
  global_options: OptionSchema[];
  /** Flags every shortcut accepts besides its parameters. */
  shortcut_options: OptionSchema[];
  /** Every exit code, with the error types of the JSON envelope that exit with it. */
  exit_codes: ExitCodeSchema[];
  /** System commands. */
  commands: CommandSchema[];
  /** Service groups and their shortcuts. */
  services: ServiceSchema[];
}

/**
 * Describes a shortcut.
 *
 * @param shortcut the definition
 */
export function shortcutSchema(shortcut: AnyShortcut): ShortcutSchema {
  const identities = identitiesOf(shortcut);
  const optional = identities.filter((id) => optionalScopesFor(shortcut, id).length > 0);
  const { tenantCalls, alternatives } = shortcut.scopes;
  return {
    kind: "shortcut",
    name: shortcutName(shortcut),
    service: shortcut.service,
    verb: shortcut.verb,
    description: shortcut.description,
    identities,
    scopes: Object.fromEntries(identities.map((id) => [id, [...scopesFor(shortcut, id)]])),
    ...(optional.length > 0
      ? {
        optional_scopes: Object.fromEntries(
          optional.map((id) => [id, [...optionalScopesFor(shortcut, id)]]),
        ),
      }
      : {}),
    ...(tenantCalls
      ? { tenant_calls: { when: tenantCalls.when, scopes: [...tenantCalls.scopes] } }
      : {}),
    ...(alternatives
      ? {
        scope_alternatives: Object.fromEntries(
          Object.entries(alternatives).map(([scope, others]) => [scope, [...others]]),
        ),
      }
      : {}),
    effect: shortcut.effect,
    idempotent: isIdempotent(shortcut),
    destructive: isDestructive(shortcut),
    params: shortcut.params.map((p) => {
      const param: ParamSchema = {
        name: p.name,
        flag: flagOf(p),
        type: p.type,
        description: p.description,
        required: p.required === true,
        env: envVarOf(shortcut.service, p),
      };
      if (p.default !== undefined) param.default = p.default;
      if (p.allowed) param.allowed = [...p.allowed];
      if (p.stdin) param.stdin = true;
      if (p.localPath) param.local_path = p.localPath;
      if (p.replacesFiles) param.replaces_files = true;
      if (p.mcpMaximum !== undefined) param.mcp_maximum = p.mcpMaximum;
      return param;
    }),
    examples: shortcut.examples,
    ...(shortcut.oneOf ? { one_of: shortcut.oneOf.map((group) => [...group]) } : {}),
  };
}

/** The exit codes of `src/errors`, each with the error types that exit with it. */
export function exitCodeTable(): ExitCodeSchema[] {
  const types = Object.entries(ERROR_TYPES).flatMap(([type, facts]) =>
    isErrorType(type) ? [{ type, facts }] : []
  );
  return Object.entries(ExitCode).map(([name, code]) => ({
    code,
    name,
    meaning: isExitCodeName(name) ? EXIT_CODE_MEANINGS[name] : "",
    error_types: types
      .filter(({ facts }) => facts.codes.some((c) => c === code))
      .map(({ type, facts }) => ({ type, meaning: facts.meaning })),
  }));
}

function isErrorType(name: string): name is ErrorType {
  return Object.hasOwn(ERROR_TYPES, name);
}

function isExitCodeName(name: string): name is keyof typeof ExitCode {
  return Object.hasOwn(EXIT_CODE_MEANINGS, name);
}

function optionSchema(flag: FlagSpec): OptionSchema {
  const schema: OptionSchema = {
    flags: flagUsage(flag),
    name: flagName(flag).replace(/^-+/, ""),
    description: flag.description,
    type: flag.value ? "string" : "bool",
    required: false,
  };
  if (flag.negated) {
    schema.default = false;
    schema.negates = flag.name;
  }
  if (flag.choices) schema.allowed = [...flag.choices];
  if (flag.repeatable) schema.repeatable = true;
  return schema;
}

function commandSchema(node: TreeNode): CommandSchema {
  const { spec } = node;
  return {
    name: node.path.slice(1).join(" "),
    description: spec.description,
    arguments: (spec.args ?? []).map((a) => ({
      name: a.name,
      required: a.required,
      variadic: false,
      description: a.description,
    })),
    options: (spec.flags ?? []).map(optionSchema),
    examples: [...(spec.examples ?? [])],
    commands: node.commands.map(commandSchema),
  };
}

function serviceSchema(node: TreeNode): ServiceSchema {
  return {
    name: node.spec.name,
    description: node.spec.description,
    examples: [...(node.spec.examples ?? [])],
    shortcuts: node.commands.flatMap((c) =>
      c.spec.shortcut ? [shortcutSchema(c.spec.shortcut)] : []
    ),
  };
}

/**
 * Describes the whole command tree: global flags, system commands and shortcuts.
 *
 * @param root the root command
 */
export async function buildSchema(root: CommandSpec): Promise<HarkSchema> {
  const tree = await loadCommandTree(root);
  const isService = (node: TreeNode) => node.commands.some((c) => c.spec.shortcut !== undefined);
  return {
    name: root.name,
    version: VERSION,
    global_options: tree.flags.filter((f) => f.name !== "help").map(optionSchema),
    shortcut_options: [INPUT_FLAG].map(optionSchema),
    exit_codes: exitCodeTable(),
    commands: tree.commands.filter((c) => !isService(c)).map(commandSchema),
    services: tree.commands.filter(isService).map(serviceSchema),
  };
}

/**
 * The part of the schema asked for: everything, one service or system command, or one shortcut
 * or sub-command.
 *
 * @param schema the whole schema
 * @param name a service or command name
 * @param verb a shortcut verb (with or without `+`) or a sub-command name
 * @throws {ValidationError} listing the known names when one is unknown
 */
export function selectSchema(
  schema: HarkSchema,
  name?: string,
  verb?: string,
): HarkSchema | ServiceSchema | ShortcutSchema | CommandSchema {
  if (name === undefined) return schema;
  const service = schema.services.find((s) => s.name === name);
  if (service) {
    if (verb === undefined) return service;
    const wanted = verb.startsWith("+") ? verb : `+${verb}`;
    const found = service.shortcuts.find((s) => s.verb === wanted);
    if (found) return found;
    throw new ValidationError(`Unknown shortcut "${name} ${wanted}"`, {
      param: "verb",
      suggestion: `Known shortcuts of ${name}: ${service.shortcuts.map((s) => s.verb).join(", ")}`,
      command: `hark schema ${name}`,
    });
  }
  const command = schema.commands.find((c) => c.name === name);
  if (command) {
    if (verb === undefined) return command;
    const sub = command.commands.find((c) => c.name === `${name} ${verb}`);
    if (sub) return sub;
    throw new ValidationError(`Unknown command "${name} ${verb}"`, {
      param: "verb",
      suggestion: `Known sub-commands of ${name}: ` +
        (command.commands.map((c) => c.name.split(" ").at(-1)).join(", ") || "none"),
      command: `hark schema ${name}`,
    });
  }
  const known = [...schema.services.map((s) => s.name), ...schema.commands.map((c) => c.name)];
  throw new ValidationError(`Unknown service or command "${name}"`, {
    param: "service",
    suggestion: `Known: ${known.join(", ")}`,
    command: "hark schema",
  });
}
