/**
 * `hark schema [service] [verb]`: a JSON description of every command and shortcut, so an agent
 * can discover hark without reading help text.
 *
 * @module
 */

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { formatJson } from "../output/mod.ts";
import { VERSION } from "../version.ts";
import { type AnyShortcut, identitiesOf, shortcutName } from "../shortcuts/definition.ts";
import { envVarOf, flagOf } from "../shortcuts/params.ts";
import { SERVICES } from "../shortcuts/registry.ts";
import type { ServiceGroup } from "../shortcuts/service_group.ts";
import { examplesOf, withExamples } from "./help.ts";

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
}

/** A shortcut. */
export interface ShortcutSchema {
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
  /** Scopes a user token needs. */
  scopes: string[];
  /** The parameters; every shortcut also takes `--input <path>`. */
  params: ParamSchema[];
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
  /** The default, when there is one. */
  default?: unknown;
  /** The allowed values, when restricted. */
  allowed?: string[];
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

/** A service group and its shortcuts. */
export interface ServiceSchema {
  /** `calendar`. */
  name: string;
  /** What it covers. */
  description: string;
  /** Example command lines. */
  examples: string[];
  /** Its shortcuts. */
  shortcuts: ShortcutSchema[];
}

/** The whole of hark. */
export interface HarkSchema {
  /** `hark`. */
  name: string;
  /** The version. */
  version: string;
  /** Flags every command accepts. */
  global_options: OptionSchema[];
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
  return {
    name: shortcutName(shortcut),
    service: shortcut.service,
    verb: shortcut.verb,
    description: shortcut.description,
    identities: identitiesOf(shortcut),
    scopes: shortcut.scopes,
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
      return param;
    }),
    examples: shortcut.examples,
  };
}

function serviceSchema(group: ServiceGroup): ServiceSchema {
  return {
    name: group.name,
    description: group.description,
    examples: group.examples,
    shortcuts: group.shortcuts.map(shortcutSchema),
  };
}

type AnyOption = CommandUnknownOpts["options"][number];

function optionSchema(option: AnyOption): OptionSchema {
  const schema: OptionSchema = {
    flags: option.flags,
    name: (option.long ?? option.short ?? "").replace(/^-+/, ""),
    description: option.description,
    type: option.required || option.optional ? "string" : "bool",
    required: option.mandatory,
  };
  if (option.defaultValue !== undefined) schema.default = option.defaultValue;
  if (option.argChoices) schema.allowed = [...option.argChoices];
  return schema;
}

function commandSchema(command: CommandUnknownOpts, prefix: string): CommandSchema {
  const name = prefix ? `${prefix} ${command.name()}` : command.name();
  return {
    name,
    description: command.description(),
    arguments: command.registeredArguments.map((a) => ({
      name: a.name(),
      required: a.required,
      variadic: a.variadic,
      description: a.description,
    })),
    options: command.options.filter((o) => !o.hidden).map(optionSchema),
    examples: examplesOf(command),
    commands: command.commands.filter((c) => c.name() !== "help").map((c) =>
      commandSchema(c, name)
    ),
  };
}

/**
 * Describes the whole command tree: global flags, system commands and shortcuts.
 *
 * @param root the root command
 * @param services the service groups; default every registered one
 */
export function buildSchema(
  root: CommandUnknownOpts,
  services: readonly ServiceGroup[] = SERVICES,
): HarkSchema {
  const groups = new Set(services.map((s) => s.name));
  return {
    name: root.name(),
    version: VERSION,
    global_options: root.options.filter((o) => !o.hidden).map(optionSchema),
    commands: root.commands
      .filter((c) => !groups.has(c.name()) && c.name() !== "help")
      .map((c) => commandSchema(c, "")),
    services: services.map(serviceSchema),
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

/** Options of {@link runSchema}. */
export interface SchemaOptions {
  /** The root command. */
  root: CommandUnknownOpts;
  /** A service or command name. */
  name?: string;
  /** A verb or sub-command. */
  verb?: string;
  /** The service groups; default every registered one. */
  services?: readonly ServiceGroup[];
}

/**
 * Writes the schema (or the part asked for) to stdout as JSON.
 *
 * @param ctx the context
 * @param options what to describe
 * @throws {ValidationError} for an unknown name
 */
export function runSchema(ctx: Context, options: SchemaOptions): void {
  const schema = selectSchema(
    buildSchema(options.root, options.services),
    options.name,
    options.verb,
  );
  ctx.stdout.write(formatJson(schema, ctx.stdout.isTerminal) + "\n");
}

/**
 * Builds `hark schema`.
 *
 * @param ctx the context
 */
export function schemaCommand(ctx: Context): Command {
  const command = new Command("schema")
    .description(
      "Describe every command and shortcut as JSON (parameters, types, defaults, " +
        "identities, scopes)",
    )
    .argument("[service]", "a service (calendar, contact, im) or a system command (auth, config…)")
    .argument("[verb]", "a shortcut verb such as +agenda, or a sub-command")
    .action((name, verb, _opts, cmd) => {
      let root = cmd as unknown as CommandUnknownOpts;
      while (root.parent) root = root.parent;
      runSchema(ctx, { root, name, verb });
    });
  withExamples(command as unknown as CommandUnknownOpts, [
    "hark schema",
    "hark schema calendar",
    "hark schema im +send",
    "hark schema auth login",
  ]);
  return command as unknown as Command;
}
