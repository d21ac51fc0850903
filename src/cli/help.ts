/**
 * Help text helpers.
 *
 * @module
 */

import type { CommandUnknownOpts } from "@commander-js/extra-typings";

/**
 * Appends an "Examples" section to a command's help.
 *
 * @param command the command
 * @param examples command lines, each optionally followed by `  # comment`
 * @returns the command, for chaining
 */
export function withExamples<T extends CommandUnknownOpts>(command: T, examples: string[]): T {
  command.addHelpText("after", `\nExamples:\n${examples.map((e) => `  $ ${e}`).join("\n")}\n`);
  (command as unknown as { _harkExamples: string[] })._harkExamples = examples;
  return command;
}

/**
 * The examples a command was given with {@link withExamples}.
 *
 * @param command the command
 */
export function examplesOf(command: CommandUnknownOpts): string[] {
  return (command as unknown as { _harkExamples?: string[] })._harkExamples ?? [];
}

/**
 * The full name of a command, such as `hark calendar +agenda`.
 *
 * @param command the command
 */
export function commandPath(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}
