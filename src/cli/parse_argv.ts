/**
 * Parsing a command line against the command tree: find the command, bind its flags and
 * arguments, and turn every mistake into a {@link ValidationError} that names the word and, when
 * one is close, what was probably meant. Global flags are accepted before or after any command.
 *
 * @module
 */

import { ValidationError } from "../errors/hark_error.ts";
import {
  type CommandSpec,
  findSubcommand,
  flagName,
  type FlagSpec,
  flagUsage,
  isGroup,
} from "./command_spec.ts";
import { suggest } from "./suggest.ts";

/** Flag values by flag name. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** What a command line asks for. */
export interface ParsedArgv {
  /** The commands from the root to the one named, the root first. */
  chain: [CommandSpec, ...CommandSpec[]];
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

/** The commands from the root to one of them, the root first: never empty. */
export type CommandChain = readonly [CommandSpec, ...CommandSpec[]];

/**
 * The command a chain names: its last.
 *
 * @param chain the commands from the root
 */
export function commandOf(chain: CommandChain): CommandSpec {
  return chain[chain.length - 1];
}

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
  const state = startParse(root, argv);
  while (state.next < argv.length) {
    const word = argv[state.next++];
    if (!state.onlyArgs && word === "--") state.onlyArgs = true;
    else if (!state.onlyArgs && word.length > 1 && word.startsWith("-")) readOption(state, word);
    else await readWord(state, word);
  }
  return verdict(state);
}

/** Where a parse is: what it has read so far, and its first mistake. */
interface ParseState {
  /** The root command; its flags are the global ones. */
  root: CommandSpec;
  /** The words. */
  argv: readonly string[];
  /** The index of the next word to read. */
  next: number;
  /** What was read so far. */
  parsed: ParsedArgv;
  /** The first mistake, when there was one. */
  error?: ValidationError;
  /** `hark help …`: what follows names the command whose help to show. */
  helpCommand: boolean;
  /** After `--`: every word is an argument. */
  onlyArgs: boolean;
  /** The first word that named no command, kept for `hark help nope`. */
  unknownCommand?: ValidationError;
}

/** A parse at the root, nothing read yet. */
function startParse(root: CommandSpec, argv: readonly string[]): ParseState {
  return {
    root,
    argv,
    next: 0,
    parsed: { chain: [root], flags: {}, globals: {}, args: [], help: false, version: false },
    helpCommand: false,
    onlyArgs: false,
  };
}

/** Keeps `error` when it is the parse's first mistake. */
function fail(state: ParseState, error: ValidationError): void {
  state.error ??= error;
}

/**
 * Reads an option word (`-h`, `--flag`, `--flag=value`, `--flag value`): a built-in, else the
 * named command's own flag, else a global one, with its value when it takes one.
 */
function readOption(state: ParseState, word: string): void {
  const { parsed, root } = state;
  const eq = word.startsWith("--") ? word.indexOf("=") : -1;
  const spelled = eq >= 0 ? word.slice(0, eq) : word;
  const inline = eq >= 0 ? word.slice(eq + 1) : undefined;
  if (spelled === "--help" || spelled === "-h") {
    parsed.help = true;
    return;
  }
  if (spelled === "--version" || spelled === "-V") {
    parsed.version = true;
    return;
  }
  const command = commandOf(parsed.chain);
  const ownFlags = command === root ? [] : command.flags ?? [];
  const own = findFlag(ownFlags, spelled);
  const flag = own ?? findFlag(root.flags ?? [], spelled);
  if (!flag) {
    const known = [...spellings(ownFlags), "--help"].concat(spellings(root.flags ?? []));
    const hint = suggest(spelled, known);
    fail(
      state,
      new ValidationError(
        `Unknown option '${spelled}'${hint ? ` (did you mean ${hint}?)` : ""}`,
        usage(parsed.chain, spelled),
      ),
    );
    return;
  }
  bindFlag(state, flag, own ? parsed.flags : parsed.globals, inline);
}

/**
 * Binds a known flag: a switch is true (false when negated) and takes no `=value`; a flag with a
 * value takes the inline one or the next word, checked against its choices, and collects every
 * value when repeatable.
 */
function bindFlag(
  state: ParseState,
  flag: FlagSpec,
  target: FlagValues,
  inline: string | undefined,
): void {
  const { chain } = state.parsed;
  if (!flag.value) {
    if (inline === undefined) target[flag.name] = !flag.negated;
    else {
      fail(
        state,
        new ValidationError(
          `Option '${flagName(flag)}' does not take a value`,
          usage(chain, flagName(flag)),
        ),
      );
    }
    return;
  }
  let value = inline;
  if (value === undefined) {
    if (state.next >= state.argv.length) {
      fail(
        state,
        new ValidationError(
          `Option '${flagUsage({ ...flag, short: undefined })}' argument missing`,
          usage(chain, flagName(flag)),
        ),
      );
      return;
    }
    value = state.argv[state.next++];
  }
  if (flag.choices && !flag.choices.includes(value)) {
    fail(
      state,
      new ValidationError(
        `Option '${flagUsage({ ...flag, short: undefined })}' argument '${value}' is ` +
          `invalid. Allowed choices are ${flag.choices.join(", ")}`,
        usage(chain, flagName(flag)),
      ),
    );
    return;
  }
  if (flag.repeatable) {
    const previous = target[flag.name];
    target[flag.name] = [...(Array.isArray(previous) ? previous : []), value];
  } else target[flag.name] = value;
}

/**
 * Reads a word that is no option: under a group, `help` or the name of a subcommand (an unknown
 * one is a mistake unless the group runs with arguments); anything else is an argument.
 */
async function readWord(state: ParseState, word: string): Promise<void> {
  const { parsed } = state;
  const command = commandOf(parsed.chain);
  if (isGroup(command) && word === "help" && !state.onlyArgs) {
    // `hark help help` is the help of help: the root's.
    state.helpCommand = true;
    parsed.help = true;
    return;
  }
  if (isGroup(command) && parsed.args.length === 0 && !state.onlyArgs) {
    const { found: next, known } = await findSubcommand(command, word);
    if (next) {
      parsed.chain.push(next);
      parsed.flags = {};
      return;
    }
    if (!command.run || state.helpCommand) {
      const hint = suggest(word, known.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
      state.unknownCommand ??= new ValidationError(
        `Unknown command '${word}'${hint ? ` (did you mean ${hint}?)` : ""}`,
        usage(parsed.chain, word),
      );
      fail(state, state.unknownCommand);
      return;
    }
  }
  parsed.args.push(word);
}

/**
 * What the command line asks for once every word is read: help of an unknown command is that
 * mistake; help or the version otherwise wins over any mistake; then the first mistake; a group
 * that does not run shows its help; last, the arguments are checked.
 */
function verdict(state: ParseState): ParsedArgv {
  const { parsed, unknownCommand, error } = state;
  // Help of a command that does not exist is that mistake, not the help of its parent.
  if (parsed.help && unknownCommand) return { ...parsed, error: unknownCommand };
  if (parsed.help || parsed.version) return parsed;
  if (error) return { ...parsed, error };
  const command = commandOf(parsed.chain);
  if (!command.run) return { ...parsed, help: true };
  const argsMistake = argsError(parsed.chain, parsed.args);
  return argsMistake ? { ...parsed, error: argsMistake } : parsed;
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
  chain: CommandChain,
  args: readonly string[],
): ValidationError | undefined {
  const command = commandOf(chain);
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
