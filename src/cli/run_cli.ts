/**
 * Running hark on an argv: parse, dispatch, and turn every failure into a {@link HarkError}
 * with the exit code it maps to. Printing the error and exiting are `main.ts`'s job.
 *
 * @module
 */

import { CommanderError, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import { loadConfig } from "../config/mod.ts";
import { type HarkError, toHarkError, ValidationError } from "../errors/mod.ts";
import { commandPath } from "./help.ts";
import { buildRoot } from "./root.ts";

/** What a run ended with. */
export interface CliOutcome {
  /** The exit code. */
  code: number;
  /** The error, when the run failed. */
  error?: HarkError;
  /** Whether errors should be printed as the JSON envelope. */
  json: boolean;
  /** Whether to show stack traces. */
  debug: boolean;
  /** A help command for the command that failed, such as `hark config set --help`. */
  helpCommand: string;
}

const HELP_CODES = new Set(["commander.helpDisplayed", "commander.help", "commander.version"]);

/**
 * Runs hark with `argv` (without the program name).
 *
 * @param ctx the context
 * @param argv the arguments
 * @param root the command tree; default {@link buildRoot}
 */
export async function runCli(
  ctx: Context,
  argv: string[],
  root: CommandUnknownOpts = buildRoot(ctx),
): Promise<CliOutcome> {
  let current: CommandUnknownOpts = root;
  let helpText = "";
  prepare(root, ctx, (text) => (helpText += text));
  root.hook("preAction", (_root, action) => {
    current = action;
  });
  const debug = argv.includes("--debug") ||
    ["1", "true"].includes(ctx.env.get("HARK_DEBUG") ?? "");
  try {
    if (argv.length === 0) {
      // outputHelp() (not helpInformation()) so the examples added after the help show too.
      root.outputHelp();
      return outcome(0);
    }
    await root.parseAsync(argv, { from: "user" });
    return outcome(0);
  } catch (thrown) {
    if (thrown instanceof CommanderError) {
      if (HELP_CODES.has(thrown.code)) {
        // `hark config` with no sub-command shows its help as an "error"; it is not one.
        if (helpText) ctx.stdout.write(helpText);
        return outcome(0);
      }
      const command = findCommand(root, argv) ?? current;
      return outcome(2, fromCommander(thrown, command), command);
    }
    return outcome(0, toHarkError(thrown), current);
  }

  function outcome(code: number, error?: HarkError, command?: CommandUnknownOpts): CliOutcome {
    return {
      code: error ? error.code : code,
      error,
      json: wantsJson(argv),
      debug,
      helpCommand: `${commandPath(command ?? root)} --help`,
    };
  }
}

/**
 * Settles JSON mode for errors using the config's `preferences.output_format` when the flags
 * did not decide it.
 *
 * @param ctx the context
 * @param outcome the outcome of {@link runCli}
 */
export async function withConfigPreference(
  ctx: Context,
  outcome: CliOutcome,
): Promise<CliOutcome> {
  if (outcome.json || !outcome.error) return outcome;
  try {
    const config = await loadConfig(ctx);
    return { ...outcome, json: config.preferences?.output_format === "json" };
  } catch {
    return outcome;
  }
}

function prepare(command: CommandUnknownOpts, ctx: Context, captureHelp: (s: string) => void) {
  command
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: captureHelp,
      outputError: () => {},
    });
  for (const sub of command.commands) prepare(sub, ctx, captureHelp);
}

function wantsJson(argv: string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") break;
    if (argv[i] === "--json" || argv[i] === "--format=json") return true;
    if (argv[i] === "--format" && argv[i + 1] === "json") return true;
  }
  return false;
}

function findCommand(root: CommandUnknownOpts, argv: string[]): CommandUnknownOpts | undefined {
  let command = root;
  for (const word of argv) {
    if (word.startsWith("-")) continue;
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    command = next;
  }
  return command === root ? undefined : command;
}

function fromCommander(error: CommanderError, command: CommandUnknownOpts): ValidationError {
  const lines = error.message.replace(/^error:\s*/, "").split("\n").filter((l) => l.trim());
  const main = lines[0] ?? "invalid arguments";
  const hint = lines.slice(1).join(" ").replace(/^\((.*)\)$/, "$1");
  const message = main.charAt(0).toUpperCase() + main.slice(1) +
    (hint ? ` (${hint.charAt(0).toLowerCase()}${hint.slice(1)})` : "");
  const param = /'([^']+)'/.exec(main)?.[1]?.split(" ")[0];
  return new ValidationError(message.replace(/\.$/, ""), {
    param,
    suggestion: `See the usage of ${commandPath(command)}`,
    command: `${commandPath(command)} --help`,
    cause: error,
  });
}
