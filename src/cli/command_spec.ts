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
}

/** What a command's `run` receives: the parse result and the outside world. */
export interface CommandCall {
  /** The context. */
  ctx: Context;
  /** The command's names from the root, such as `["auth", "login"]`. */
  path: string[];
  /** The command's own flags by name; absent when not given (a list for repeatable ones). */
  flags: Record<string, string | boolean | string[] | undefined>;
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
  /** The shortcut this command runs, for `hark schema` and completion. */
  shortcut?: AnyShortcut;
  /** Does the work; imports the command's implementation when called. */
  run?: (call: CommandCall) => Promise<void>;
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
  return (command.commands?.length ?? 0) > 0 || command.loadCommands !== undefined;
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
