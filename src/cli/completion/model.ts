/**
 * What shell completion knows of the command tree, and the quoting the generated scripts share.
 * The scripts are static: every command, alias, flag and allowed value is written into them
 * when they are generated, so completing costs no hark process; only the words of the API
 * commands (over a thousand, with their flags) are asked of `hark __complete` when typed.
 *
 * @module
 */

import { flagName, type FlagSpec } from "../command_spec.ts";
import type { TreeNode } from "../command_tree.ts";

/** A flag as completion sees it. */
export interface CompletionFlag {
  /** The spellings, long first: `["--format"]`, `["--yes", "-y"]`. */
  names: string[];
  /** One line of help. */
  description: string;
  /** Whether a value follows the flag (`--profile <name>`, `--level [n]`). */
  takesValue: boolean;
  /** The allowed values, empty when any value goes. */
  choices: string[];
  /** Whether the value is a file name (its value name mentions a file or a dir). */
  files: boolean;
  /** Whether the value is a profile name, which the script asks hark for. */
  profiles: boolean;
}

/** A positional argument as completion sees it. */
export interface CompletionArgument {
  /** The allowed values, empty when any value goes. */
  choices: string[];
  /** Whether the value is a file name. */
  files: boolean;
  /** Whether the value is a profile name, which the script asks hark for. */
  profiles: boolean;
}

/** A command as completion sees it. */
export interface CompletionNode {
  /** The canonical name, the last of `path`: `+agenda`. */
  name: string;
  /** The canonical names from the root, such as `["hark", "calendar", "+agenda"]`. */
  path: string[];
  /** Other names of the command. */
  aliases: string[];
  /** One line of help. */
  description: string;
  /** The visible sub-commands. */
  commands: CompletionNode[];
  /** Its own visible flags, then those of its ancestors (accepted after it too). */
  flags: CompletionFlag[];
  /** Its positional arguments, in order. */
  args: CompletionArgument[];
  /**
   * Whether it has sub-commands the script cannot list (API services and resources, found in
   * the catalogue): their words are asked of `hark __complete`.
   */
  dynamic: boolean;
}

const FILE_VALUE = /file|dir/i;

/**
 * The completion model of the command tree: visible commands (with a `help` command in every
 * group, whose argument completes the sibling commands), every flag accepted at each command
 * (its own, then the global ones), aliases and allowed values.
 *
 * @param tree the loaded command tree
 */
export function completionModel(tree: TreeNode): CompletionNode {
  const globals = tree.flags.filter((f) => f.name !== "help").map(completionFlag);
  return walk(tree, globals);
}

function completionFlag(flag: FlagSpec): CompletionFlag {
  const names = [flagName(flag), ...(flag.short ? [`-${flag.short}`] : [])];
  const takesValue = flag.value !== undefined;
  const offered = flag.choices ?? flag.suggestions;
  return {
    names,
    description: oneLine(flag.description),
    takesValue,
    choices: takesValue ? [...(offered ?? [])] : [],
    files: takesValue && !offered && FILE_VALUE.test(flag.value ?? ""),
    profiles: takesValue && flag.dynamicValues === "profiles",
  };
}

function walk(node: TreeNode, globals: CompletionFlag[]): CompletionNode {
  const commands = node.commands.map((child) => walk(child, globals));
  if (commands.length > 0) {
    // `help [command]` in every group: its argument completes the sibling commands.
    commands.push({
      name: "help",
      path: [...node.path, "help"],
      aliases: [],
      description: "display help for command",
      commands: [],
      flags: globals,
      args: [{ choices: commands.map((c) => c.name), files: false, profiles: false }],
      dynamic: false,
    });
  }
  return {
    name: node.spec.name,
    path: node.path,
    aliases: [...(node.spec.aliases ?? [])],
    description: oneLine(node.spec.description),
    commands,
    flags: node.flags.map(completionFlag),
    args: (node.spec.args ?? []).map((arg) => ({
      choices: [...(arg.choices ?? arg.suggestions ?? [])],
      files: !arg.choices && !arg.suggestions && FILE_VALUE.test(arg.name),
      profiles: arg.dynamicValues === "profiles",
    })),
    dynamic: node.spec.moreCommands !== undefined,
  };
}
function oneLine(text: string): string {
  return (text.split("\n")[0] ?? "").replaceAll("\t", " ").trim();
}

/** Every node, parents first. */
export function allNodes(node: CompletionNode): CompletionNode[] {
  return [node, ...node.commands.flatMap(allNodes)];
}

/** The lookup key of a positional argument in the generated data, `#0` for the first. */
function argKey(index: number): string {
  return `#${index}`;
}

/** Every (key, values) pair a command completes values for: flags with values, arguments. */
export function valueKeys(node: CompletionNode): ValueEntry[] {
  const entries: ValueEntry[] = [];
  for (const flag of node.flags) {
    if (flag.takesValue && (flag.choices.length > 0 || flag.files || flag.profiles)) {
      const { choices, files, profiles } = flag;
      entries.push({ keys: flag.names, choices, files, profiles });
    }
  }
  node.args.forEach((arg, index) => {
    if (arg.choices.length === 0 && !arg.files && !arg.profiles) return;
    const { choices, files, profiles } = arg;
    entries.push({ keys: [argKey(index)], choices, files, profiles });
  });
  return entries;
}

/** The values one flag or argument completes: a fixed list, file names, profile names. */
export interface ValueEntry {
  /** The flag's spellings, or `#<n>` for an argument. */
  keys: string[];
  /** The fixed values. */
  choices: string[];
  /** Whether file names fit. */
  files: boolean;
  /** Whether profile names fit (asked of `hark __complete --profiles`). */
  profiles: boolean;
}

/**
 * Quotes a word for bash or zsh: single quotes, with `'` written as `'\''`.
 *
 * @param word any text
 */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Quotes a word for fish: single quotes, with `\` and `'` escaped by a backslash.
 *
 * @param word any text
 */
export function fishQuote(word: string): string {
  return `'${word.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** An identifier-safe form of the program name, for function names. */
export function ident(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}
