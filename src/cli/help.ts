/**
 * The help text of a command: usage, description, its flags, its sub-commands, the global flags
 * (in full at the root, in one short paragraph elsewhere), examples and notes, wrapped to the
 * terminal's width.
 *
 * @module
 */

import { type CommandSpec, flagName, type FlagSpec, flagUsage, isGroup } from "./command_spec.ts";
import { BUILTIN_FLAGS, chainName, type CommandChain, commandOf } from "./parse_argv.ts";

/** Options of {@link renderHelp}. */
export interface HelpOptions {
  /** The width to wrap at; default 80. */
  width?: number;
  /** More sub-commands, listed after the others under their own heading (API resources). */
  more?: { heading: string; commands: readonly CommandSpec[] };
}

/**
 * The help of the last command of `chain`.
 *
 * @param chain the commands from the root to the one described
 * @param subcommands its sub-commands (loaded, for a service)
 * @param options the width
 */
export function renderHelp(
  chain: CommandChain,
  subcommands: readonly CommandSpec[],
  options: HelpOptions = {},
): string {
  const width = Math.max(40, Math.min(options.width ?? 80, 120));
  const root = chain[0];
  const command = commandOf(chain);
  const atRoot = chain.length === 1;
  const own = atRoot
    ? [BUILTIN_FLAGS.version, ...(root.flags ?? []), BUILTIN_FLAGS.help]
    : [...(command.flags ?? []), BUILTIN_FLAGS.help];
  const sections: string[] = [];
  const name = chainName(chain) +
    (command.aliases?.length && !atRoot ? `|${command.aliases.join("|")}` : "");
  sections.push(`Usage: ${name} ${usageTail(command)}`.trimEnd());
  sections.push(wrap(command.description, width));
  if (command.details) sections.push(wrap(command.details, width));
  if (command.args && command.args.length > 0) {
    const rows = command.args.map((a) => [
      a.name,
      a.description + (a.choices ? ` (choices: ${a.choices.join(", ")})` : ""),
    ]);
    sections.push("Arguments:\n" + table(rows, width));
  }
  sections.push(
    "Options:\n" + table(own.map((f) => [flagUsage(f), flagHelp(f)]), width),
  );
  if (subcommands.length > 0) {
    const rows = subcommands.map((c) => [commandTerm(c), c.description]);
    rows.push(["help [command]", "display help for command"]);
    sections.push("Commands:\n" + table(rows, width));
  }
  if (options.more && options.more.commands.length > 0) {
    const rows = options.more.commands.map((c) => [commandTerm(c), c.description]);
    sections.push(`${options.more.heading}:\n` + table(rows, width));
  }
  if (!atRoot) sections.push(globalsParagraph(root, width));
  if (command.examples && command.examples.length > 0) {
    sections.push("Examples:\n" + command.examples.map((e) => `  $ ${e}`).join("\n"));
  }
  // A shortcut's notes are written when read: read them once.
  const notes = command.notes;
  if (notes) sections.push(wrap(notes.trimEnd(), width));
  return sections.join("\n\n") + "\n";
}

function usageTail(command: CommandSpec): string {
  const parts = ["[options]"];
  if (isGroup(command)) parts.push("[command]");
  for (const arg of command.args ?? []) {
    parts.push(arg.required ? `<${arg.name}>` : `[${arg.name}]`);
  }
  return parts.join(" ");
}

function commandTerm(command: CommandSpec): string {
  const parts = [command.name];
  if (command.aliases?.length) parts[0] += `|${command.aliases.join("|")}`;
  if (isGroup(command)) return parts[0];
  if ((command.flags?.length ?? 0) > 0) parts.push("[options]");
  for (const arg of command.args ?? []) {
    parts.push(arg.required ? `<${arg.name}>` : `[${arg.name}]`);
  }
  return parts.join(" ");
}

function flagHelp(flag: FlagSpec): string {
  let text = flag.description;
  if (flag.choices) text += ` (choices: ${flag.choices.join(", ")})`;
  if (flag.repeatable) text += " (repeatable)";
  return text;
}

function globalsParagraph(root: CommandSpec, width: number): string {
  const names = (root.flags ?? []).map((f) =>
    f.choices ? `${flagName(f)} ${f.choices.join("|")}` : flagUsage(f)
  );
  return wrap(
    `Global options: ${names.join(", ")}, -V/--version (details: ${root.name} --help)`,
    width,
  );
}

/** Two columns: terms, then their wrapped descriptions aligned after the longest term. */
function table(rows: string[][], width: number): string {
  const termWidth = Math.min(Math.max(...rows.map((r) => r[0].length)), 32);
  const indent = 2 + termWidth + 2;
  return rows.map(([term, text]) => {
    const lines = wrapLines(text, Math.max(20, width - indent));
    if (term.length > termWidth) {
      return `  ${term}\n` + lines.map((l) => " ".repeat(indent) + l).join("\n");
    }
    return `  ${term.padEnd(termWidth)}  ${lines[0] ?? ""}` +
      lines.slice(1).map((l) => "\n" + " ".repeat(indent) + l).join("");
  }).join("\n");
}

/** Wraps each line that is too long, keeping its indentation on the lines it wraps into. */
function wrap(text: string, width: number): string {
  return text.split("\n").map((line) => {
    if (line.length <= width) return line;
    const indent = /^ */.exec(line)?.[0] ?? "";
    return wrapLines(line, width - indent.length).map((l) => indent + l).join("\n");
  }).join("\n");
}

/** Greedy word wrap; a word longer than the width gets a line of its own. */
function wrapLines(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}
