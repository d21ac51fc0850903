/**
 * The command tree as data: every command's name, flags, arguments, help and examples, and a
 * `run` that loads the command's code only when it runs. Parsing (`parse_argv.ts`), help
 * (`help.ts`), completion and `hark schema` all read this one description, so `--help` and
 * `--version` load no command's implementation and read no config.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { AnyShortcut } from "../shortcuts/definition.ts";
import type { GlobalOptions } from "../session/global_options.ts";

/** A flag of a command. */
export interface FlagSpec {
  /** The long name without dashes, kebab-case: `device-code` is `--device-code`. */
  name: string;
  /** A one-letter alias, without its dash: `y` is `-y`. */
  short?: string;
  /** The value placeholder, such as `<scope>`; absent for a switch. */
  value?: string;
  /** One line of help. */
  description: string;
  /** The values allowed, when restricted. */
  choices?: readonly string[];
  /**
   * Values completion offers when `choices` does not restrict them (a shortcut's allowed set,
   * which its own parameter check enforces; well-known keys among others).
   */
  suggestions?: readonly string[];
  /** Values completion asks hark for when typed: `profiles`, the config's profile names. */
  dynamicValues?: "profiles";
  /** Whether the flag may be given several times; its value is then a list. */
  repeatable?: boolean;
  /** Spelled `--no-<name>`: a switch whose value is `false` when given. */
  negated?: boolean;
}

/** A positional argument of a command. */
export interface ArgSpec {
  /** The name shown in help, such as `key` or `METHOD`. */
  name: string;
  /** One line of help. */
  description: string;
  /** Whether it must be given. */
  required: boolean;
  /** The values allowed, when restricted. */
  choices?: readonly string[];
  /** Values completion offers without restricting the argument to them. */
  suggestions?: readonly string[];
  /** Values completion asks hark for when typed: `profiles`, the config's profile names. */
  dynamicValues?: "profiles";
}

/** Flag values by flag name, as the parser binds them. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/**
 * What a command's `run` receives: the parse result and the outside world. `F` is the type of its
 * flags' values: {@link FlagValuesOf} its flag record where the command is declared with
 * {@link defineCommand}.
 */
export interface CommandCall<F = FlagValues> {
  /** The context. */
  ctx: Context;
  /** The command's names from the root, such as `["auth", "login"]`. */
  path: string[];
  /** The command's own flags by name; absent when not given (a list for repeatable ones). */
  flags: F;
  /** The positional arguments, in order. */
  args: string[];
  /** The global flags. */
  globals: GlobalOptions;
}

/** A command: a group of sub-commands, a leaf that runs, or both. */
export interface CommandSpec {
  /** The name as typed: `login`, `+agenda`. */
  name: string;
  /** Other names, such as `ls` for `list`. */
  aliases?: readonly string[];
  /** One line saying what it does. */
  description: string;
  /** More about what it does, shown in its help after the description. */
  details?: string;
  /** Its own flags (the global flags are accepted everywhere). */
  flags?: readonly FlagSpec[];
  /** Its positional arguments, required ones first. */
  args?: readonly ArgSpec[];
  /** Command lines starting with `hark`, each optionally followed by `  # comment`. */
  examples?: readonly string[];
  /** Text shown after the examples in help. */
  notes?: string;
  /** The sub-commands. */
  commands?: readonly CommandSpec[];
  /**
   * Loads the sub-commands on demand (a service's shortcuts), so that commands which do not
   * need them never load their code.
   */
  loadCommands?: () => Promise<readonly CommandSpec[]>;
  /**
   * More sub-commands, loaded only when a word names none of the others: a service's API
   * resources and the API-only services, read from the catalogue, so that a shortcut or
   * `--help` at the root never loads it.
   */
  moreCommands?: () => Promise<readonly CommandSpec[]>;
  /**
   * The heading under which help lists {@link moreCommands}, after the others; absent, help
   * does not list them (the root, whose help must not load the catalogue).
   */
  moreHeading?: string;
  /** The shortcut this command runs, for `hark schema` and completion. */
  shortcut?: AnyShortcut;
  /** Does the work; imports the command's implementation when called. */
  run?: (call: CommandCall) => Promise<void>;
}

/** The type-level mark of a flag's value; never present at run time. */
declare const VALUE: unique symbol;

/** A flag declaration without its name, whose parsed value has type `T` (absent: `undefined`). */
export interface Flag<T> extends Omit<FlagSpec, "name"> {
  /** Type-level only: the parsed value's type. */
  readonly [VALUE]?: T;
}

/**
 * Flags keyed by name without dashes; a negated flag's key is its spelling, `no-wait`, and its
 * value is found under `wait`.
 */
// deno-lint-ignore no-explicit-any
export type FlagRecord = Record<string, Flag<any>>;

/** The name a flag's value is found under: `no-wait` of a negated flag is `wait`. */
type NameOf<K, F> = F extends { negated: true } ? K extends `no-${infer N}` ? N : K : K;

/** The parsed values of a flag record; a flag not given is `undefined`. */
export type FlagValuesOf<F extends FlagRecord> = {
  [K in keyof F as NameOf<K, F[K]>]?: F[K] extends Flag<infer T> ? T : never;
};

/** Options every flag may declare. */
type FlagOptions = Pick<FlagSpec, "description" | "short">;

/**
 * The flag constructors: `flag.bool` (a switch), `flag.negated` (`--no-x`), `flag.string` (takes
 * a value), `flag.choice` (one of a set), `flag.list` (repeatable).
 */
export const flag = {
  /**
   * A switch: `true` when given.
   *
   * @param options help
   */
  bool(options: FlagOptions): Flag<true> {
    return { ...options };
  },
  /**
   * `--no-<name>`, keyed `no-<name>`: `false` under `<name>` when given.
   *
   * @param options help
   */
  negated(options: FlagOptions): Flag<false> & { negated: true } {
    return { ...options, negated: true };
  },
  /**
   * A flag that takes a value.
   *
   * @param value the placeholder in help, such as `<id>`
   * @param options help
   */
  string(value: string, options: FlagOptions): Flag<string> {
    return { ...options, value };
  },
  /**
   * A flag whose value is one of a set; the parser refuses others.
   *
   * @param value the placeholder in help
   * @param choices the allowed values
   * @param options help
   */
  choice<const C extends string>(
    value: string,
    choices: readonly C[],
    options: FlagOptions,
  ): Flag<C> {
    return { ...options, value, choices };
  },
  /**
   * A flag that may be given several times; its value is the list.
   *
   * @param value the placeholder in help
   * @param options help
   */
  list(value: string, options: FlagOptions): Flag<string[]> {
    return { ...options, value, repeatable: true };
  },
};

/**
 * The flags of a record as the parser, help and completion read them: named, in key order.
 *
 * @param flags the record
 */
export function flagList(flags: FlagRecord): FlagSpec[] {
  return Object.entries(flags).map(([key, decl]) => ({
    ...decl,
    name: decl.negated ? key.replace(/^no-/, "") : key,
  }));
}

/** A command as written: its flags a typed record, and `run` receiving their values typed. */
export interface CommandDefinition<F extends FlagRecord>
  extends Omit<CommandSpec, "flags" | "run"> {
  /** Its own flags, keyed by name (`no-<name>` for a negated one); help lists them in order. */
  flags: F;
  /** Does the work; imports the command's implementation when called. */
  run: (call: CommandCall<FlagValuesOf<F>>) => Promise<void>;
}

/**
 * Declares a command with typed flags: `run` sees each flag's value type; the tree gets the flags
 * as a named list.
 *
 * @param definition the command, flags keyed by name
 * @example
 * ```ts
 * const remove = defineCommand({
 *   name: "remove", description: "Remove a profile",
 *   flags: { yes: flag.bool({ short: "y", description: "do not ask" }) },
 *   run: async (call) => (await import("./remove.ts")).runRemove(call), // call.flags.yes: true | undefined
 * });
 * ```
 */
export function defineCommand<const F extends FlagRecord>(
  definition: CommandDefinition<F>,
): CommandSpec {
  // The parser binds values by the names of `flagList(flags)`, checking choices, repeats and
  // switches as declared, so `run`'s typed view holds: the one place the two meet.
  return { ...definition, flags: flagList(definition.flags) } as CommandSpec;
}

/**
 * The sub-commands of a command, loading them when they are loaded on demand.
 *
 * @param command the command
 */
export async function subcommandsOf(command: CommandSpec): Promise<readonly CommandSpec[]> {
  if (command.commands) return command.commands;
  return command.loadCommands ? await command.loadCommands() : [];
}

/**
 * Whether a command has sub-commands (known or loaded on demand).
 *
 * @param command the command
 */
export function isGroup(command: CommandSpec): boolean {
  return (command.commands?.length ?? 0) > 0 || command.loadCommands !== undefined ||
    command.moreCommands !== undefined;
}

/**
 * The sub-command a word names: one of the sub-commands, else one of the more ones.
 *
 * @param command the command
 * @param word the name or alias
 * @returns the sub-command, and every sub-command looked at (for "did you mean")
 */
export async function findSubcommand(
  command: CommandSpec,
  word: string,
): Promise<{ found?: CommandSpec; known: readonly CommandSpec[] }> {
  const named = (c: CommandSpec) => c.name === word || c.aliases?.includes(word) === true;
  const children = await subcommandsOf(command);
  const found = children.find(named);
  if (found || !command.moreCommands) return { found, known: children };
  const more = await command.moreCommands();
  return { found: more.find(named), known: [...children, ...more] };
}

/**
 * The spelling of a flag: `--device-code`, `--no-wait`.
 *
 * @param flag the flag
 */
export function flagName(flag: FlagSpec): string {
  return flag.negated ? `--no-${flag.name}` : `--${flag.name}`;
}

/**
 * A flag as help shows it: `-y, --yes`, `--scope <scope>`.
 *
 * @param flag the flag
 */
export function flagUsage(flag: FlagSpec): string {
  const long = flagName(flag) + (flag.value ? ` ${flag.value}` : "");
  return flag.short ? `-${flag.short}, ${long}` : long;
}
