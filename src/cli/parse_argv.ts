/**
 * Parsing a command line against the command tree: find the command, bind its flags and
 * arguments, and turn every mistake into a {@link ValidationError} that names the word and, when
 * one is close, what was probably meant. Global flags are accepted before or after any command.
 *
 * @module
 */

import { ValidationError } from "../errors/mod.ts";
import {
  type CommandSpec,
  flagName,
  type FlagSpec,
  flagUsage,
  isGroup,
  subcommandsOf,
} from "./command_spec.ts";
import { suggest } from "./suggest.ts";

/** Flag values by flag name. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** What a command line asks for. */
export interface ParsedArgv {
  /** The commands from the root to the one named, the root first. */
  chain: CommandSpec[];
  /** The named command's own flags. */
  flags: FlagValues;
  /** The global flags (the root's). */
  globals: FlagValues;
  /** The positional arguments of the named command. */
  args: string[];
  /** `--help`, `-h` or `hark help …`: show the named command's help. */
  help: boolean;
  /** `--version` or `-V`. */
  version: boolean;
  /**
   * The first mistake, when there was one and neither help nor the version was asked for; with
   * help, a command that does not exist (`hark help nope`).
   */
  error?: ValidationError;
}

/** The flags every command understands besides its own and the global ones. */
const HELP_FLAG: FlagSpec = { name: "help", short: "h", description: "display help for command" };
const VERSION_FLAG: FlagSpec = { name: "version", short: "V", description: "print the version" };

/**
 * The built-in flags: `-h, --help` on every command, `-V, --version` with the global ones.
 */
export const BUILTIN_FLAGS = { help: HELP_FLAG, version: VERSION_FLAG } as const;

/**
 * The full name of a command chain: `hark auth login`.
 *
 * @param chain the commands from the root
 */
export function chainName(chain: readonly CommandSpec[]): string {
  return chain.map((c) => c.name).join(" ");
}

/**
 * Parses `argv` (without the program name) against the tree.
 *
 * @param root the root command; its flags are the global flags
 * @param argv the words
 * @returns what was asked for, as far as it could be read; `error` holds the first mistake (an
 *   unknown command or flag, a missing or disallowed value, the wrong number of arguments), left
 *   out when help or the version was asked for, except help of an unknown command
 */
export async function parseArgv(root: CommandSpec, argv: readonly string[]): Promise<ParsedArgv> {
  const parsed: ParsedArgv = {
    chain: [root],
    flags: {},
    globals: {},
    args: [],
    help: false,
    version: false,
  };
  const errors: ValidationError[] = [];
  const fail = (error: ValidationError) => {
    if (errors.length === 0) errors.push(error);
  };
  let helpCommand = false;
  let onlyArgs = false;
  let unknownCommand: ValidationError | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    const command = parsed.chain.at(-1)!;
    if (!onlyArgs && word === "--") {
      onlyArgs = true;
      continue;
    }
    if (!onlyArgs && word.length > 1 && word.startsWith("-")) {
      const eq = word.startsWith("--") ? word.indexOf("=") : -1;
      const spelled = eq >= 0 ? word.slice(0, eq) : word;
      const inline = eq >= 0 ? word.slice(eq + 1) : undefined;
      if (spelled === "--help" || spelled === "-h") {
        parsed.help = true;
        continue;
      }
      if (spelled === "--version" || spelled === "-V") {
        parsed.version = true;
        continue;
      }
      const own = findFlag(command === root ? [] : command.flags ?? [], spelled);
      const global = own ? undefined : findFlag(root.flags ?? [], spelled);
      const flag = own ?? global;
      if (!flag) {
        const known = [...spellings(command === root ? [] : command.flags ?? []), "--help"]
          .concat(spellings(root.flags ?? []));
        const hint = suggest(spelled, known);
        fail(
          new ValidationError(
            `Unknown option '${spelled}'${hint ? ` (did you mean ${hint}?)` : ""}`,
            usage(parsed.chain, spelled),
          ),
        );
        continue;
      }
      const target = own ? parsed.flags : parsed.globals;
      if (!flag.value) {
        if (inline !== undefined) {
          fail(
            new ValidationError(
              `Option '${flagName(flag)}' does not take a value`,
              usage(parsed.chain, flagName(flag)),
            ),
          );
        } else target[flag.name] = !flag.negated;
        continue;
      }
      let value = inline;
      if (value === undefined) {
        if (i + 1 >= argv.length) {
          fail(
            new ValidationError(
              `Option '${flagUsage({ ...flag, short: undefined })}' argument missing`,
              usage(parsed.chain, flagName(flag)),
            ),
          );
          continue;
        }
        value = argv[++i];
      }
      if (flag.choices && !flag.choices.includes(value)) {
        fail(
          new ValidationError(
            `Option '${flagUsage({ ...flag, short: undefined })}' argument '${value}' is ` +
              `invalid. Allowed choices are ${flag.choices.join(", ")}`,
            usage(parsed.chain, flagName(flag)),
          ),
        );
        continue;
      }
      if (flag.repeatable) {
        const previous = target[flag.name];
        target[flag.name] = [...(Array.isArray(previous) ? previous : []), value];
      } else target[flag.name] = value;
      continue;
    }
    if (isGroup(command) && word === "help" && !onlyArgs) {
      // `hark help help` is the help of help: the root's.
      helpCommand = true;
      parsed.help = true;
      continue;
    }
    if (isGroup(command) && parsed.args.length === 0 && !onlyArgs) {
      const children = await subcommandsOf(command);
      const next = children.find((c) => c.name === word || c.aliases?.includes(word));
      if (next) {
        parsed.chain.push(next);
        parsed.flags = {};
        continue;
      }
      if (!command.run || helpCommand) {
        const hint = suggest(word, children.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
        unknownCommand ??= new ValidationError(
          `Unknown command '${word}'${hint ? ` (did you mean ${hint}?)` : ""}`,
          usage(parsed.chain, word),
        );
        fail(unknownCommand);
        continue;
      }
    }
    parsed.args.push(word);
  }
  // Help of a command that does not exist is that mistake, not the help of its parent.
  if (parsed.help && unknownCommand) return { ...parsed, error: unknownCommand };
  if (parsed.help || parsed.version) return parsed;
  if (errors.length > 0) return { ...parsed, error: errors[0] };
  const command = parsed.chain.at(-1)!;
  if (!command.run) return { ...parsed, help: true };
  const error = argsError(parsed.chain, parsed.args);
  return error ? { ...parsed, error } : parsed;
}

function findFlag(flags: readonly FlagSpec[], spelled: string): FlagSpec | undefined {
  return flags.find((f) => flagName(f) === spelled || (f.short && `-${f.short}` === spelled));
}

function spellings(flags: readonly FlagSpec[]): string[] {
  return flags.flatMap((f) => [flagName(f), ...(f.short ? [`-${f.short}`] : [])]);
}

function usage(chain: readonly CommandSpec[], param: string) {
  return {
    param,
    suggestion: `See the usage of ${chainName(chain)}`,
    command: `${chainName(chain)} --help`,
  };
}

function argsError(
  chain: readonly CommandSpec[],
  args: readonly string[],
): ValidationError | undefined {
  const command = chain.at(-1)!;
  const specs = command.args ?? [];
  const missing = specs.find((spec, index) => spec.required && args[index] === undefined);
  if (missing) {
    return new ValidationError(
      `Missing required argument '${missing.name}'`,
      usage(chain, missing.name),
    );
  }
  if (args.length > specs.length) {
    const expected = specs.length === 1 ? "1 argument" : `${specs.length} arguments`;
    return new ValidationError(
      `Too many arguments for '${command.name}'. Expected ${expected} but got ${args.length}`,
      usage(chain, command.name),
    );
  }
  for (const [index, spec] of specs.entries()) {
    const value = args[index];
    if (value !== undefined && spec.choices && !spec.choices.includes(value)) {
      return new ValidationError(
        `Argument '${value}' is invalid. Allowed choices are ${spec.choices.join(", ")}`,
        usage(chain, spec.name),
      );
    }
  }
  return undefined;
}
