/**
 * `hark __complete <word>…`: the completion candidates of a command line, for what the static
 * completion scripts cannot know without the catalogue (API services, resources, methods and
 * their flags). The scripts call it only there, so completing a shortcut or a system command
 * still costs no hark process. Prints one candidate a line: the word, a tab, its description.
 *
 * @module
 */

import type { Context } from "../../context.ts";
import { loadConfig } from "../../config/mod.ts";
import {
  type CommandSpec,
  findSubcommand,
  flagName,
  type FlagSpec,
  isGroup,
  subcommandsOf,
} from "../command_spec.ts";
import { BUILTIN_FLAGS } from "../parse_argv.ts";

/** A candidate: the word and its description. */
export interface Candidate {
  /** What completes the word. */
  value: string;
  /** One line of help. */
  description: string;
}

/** The flags accepted at a command: its own, `--help`, then the global ones. */
function flagsAt(root: CommandSpec, command: CommandSpec): FlagSpec[] {
  const globals = [BUILTIN_FLAGS.version, ...(root.flags ?? [])];
  return command === root
    ? [...globals, BUILTIN_FLAGS.help]
    : [...(command.flags ?? []), BUILTIN_FLAGS.help, ...globals];
}

/** The flag spelled `word` at a command (`--name`, `-x`). */
function findFlag(flags: readonly FlagSpec[], word: string): FlagSpec | undefined {
  return flags.find((f) =>
    flagName(f) === word || (f.short !== undefined && `-${f.short}` === word)
  );
}

function oneLine(text: string): string {
  return (text.split("\n")[0] ?? "").replaceAll("\t", " ").trim();
}

/** Every sub-command of a group, the ones found by name too, and `help`. */
async function subcommandCandidates(command: CommandSpec): Promise<Candidate[]> {
  const listed = await subcommandsOf(command);
  const more = command.moreCommands ? await command.moreCommands() : [];
  const all = [...listed, ...more].map((c) => ({
    value: c.name,
    description: oneLine(c.description),
  }));
  return isGroup(command)
    ? [...all, { value: "help", description: "display help for command" }]
    : all;
}

/**
 * The candidates for the last of `words` (the words after `hark`; the last is the one under the
 * cursor, empty when the cursor follows a space): sub-commands, flags, or a flag's or an
 * argument's allowed values, those that start with it.
 *
 * @param root the command tree
 * @param words the words typed
 */
export async function completeWords(
  root: CommandSpec,
  words: readonly string[],
): Promise<Candidate[]> {
  let command = root;
  let expect: FlagSpec | undefined;
  let nargs = 0;
  let dashdash = false;
  const typed = words.slice(0, -1);
  const cur = words.at(-1) ?? "";
  for (const word of typed) {
    if (expect) {
      // bash splits --flag=value into --flag, = and value.
      if (word !== "=") expect = undefined;
    } else if (dashdash || !word.startsWith("-") || word === "-") {
      const next = !dashdash && nargs === 0
        ? (await findSubcommand(command, word)).found
        : undefined;
      if (next) command = next;
      else nargs++;
    } else if (word === "--") {
      dashdash = true;
    } else if (!word.includes("=")) {
      const flag = findFlag(flagsAt(root, command), word);
      if (flag?.value) expect = flag;
    }
  }
  const starting = (list: Candidate[], prefix = "") =>
    list.map((c) => ({ ...c, value: prefix + c.value })).filter((c) => c.value.startsWith(cur));
  const choices = (flag: FlagSpec | undefined) =>
    (flag?.choices ?? flag?.suggestions ?? []).map((value) => ({ value, description: "" }));
  if (expect) return starting(choices(expect)).filter((c) => c.value !== "=");
  if (!dashdash && cur.startsWith("-")) {
    const flags = flagsAt(root, command);
    const eq = cur.indexOf("=");
    if (eq > 0) {
      const flag = findFlag(flags, cur.slice(0, eq));
      return starting(choices(flag), cur.slice(0, eq + 1));
    }
    return starting(
      flags.flatMap((f) =>
        [flagName(f), ...(f.short ? [`-${f.short}`] : [])].map((value) => ({
          value,
          description: oneLine(f.description),
        }))
      ),
    );
  }
  const found: Candidate[] = [];
  if (!dashdash && nargs === 0) found.push(...await subcommandCandidates(command));
  const arg = command.args?.[nargs];
  found.push(
    ...(arg?.choices ?? arg?.suggestions ?? []).map((value) => ({ value, description: "" })),
  );
  return starting(found);
}

/**
 * Runs `hark __complete`: prints the candidates, one a line as `word<TAB>description`; with
 * `--profiles`, the config's profile names, one a line.
 *
 * @param ctx the context
 * @param root the command tree
 * @param words the words after `__complete` (a leading `--` is dropped)
 */
export async function runComplete(
  ctx: Context,
  root: CommandSpec,
  words: readonly string[],
): Promise<void> {
  if (words[0] === "--profiles") {
    ctx.stdout.write((await profileNames(ctx)).map((name) => `${name}\n`).join(""));
    return;
  }
  const rest = words[0] === "--" ? words.slice(1) : words;
  const candidates = await completeWords(root, rest.length === 0 ? [""] : rest);
  ctx.stdout.write(candidates.map((c) => `${c.value}\t${c.description}\n`).join(""));
}

/**
 * The profile names of the config, for completing `--profile` and `profile use`: nothing when the
 * config cannot be read (completion never prints an error), and only names a shell word can hold
 * as they are.
 *
 * @param ctx the context
 */
export async function profileNames(ctx: Context): Promise<string[]> {
  try {
    const config = await loadConfig(ctx);
    return Object.keys(config.apps ?? {}).filter((name) => /^[\w.@+-]+$/.test(name)).sort();
  } catch {
    return [];
  }
}
