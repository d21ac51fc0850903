/**
 * Running hark on an argv: parse, then show help or the version, or run the command; every
 * failure becomes a {@link HarkError} with the exit code it maps to. Printing the error and
 * exiting are `main.ts`'s job.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { type HarkError, toHarkError } from "../errors/hark_error.ts";
import { shellQuote } from "../errors/shell_quote.ts";
import { VERSION } from "../version.ts";
import { type CommandSpec, subcommandsOf } from "./command_spec.ts";
import { debugFromEnv } from "../session/global_options.ts";
import { readGlobals } from "./globals.ts";
import { renderHelp } from "./help.ts";
import { chainName, commandOf, parseArgv, type ParsedArgv } from "./parse_argv.ts";
import { buildRoot } from "./root.ts";
import { catalogueRef } from "./catalogue/catalogue_ref.ts";

/** What a run ended with. */
export interface CliOutcome {
  /** The exit code. */
  code: number;
  /** The error, when the run failed. */
  error?: HarkError;
  /** Whether errors should be printed as the JSON envelope (`--json`, `--format json`). */
  json: boolean;
  /** Whether to show stack traces. */
  debug: boolean;
  /** Whether colour was turned off with `--no-color`. */
  noColor: boolean;
  /** A help command for the command that failed, such as `hark config set --help`. */
  helpCommand: string;
  /**
   * The command line as typed, quoted for a shell (`hark contact +search-user --query alice`),
   * to offer when running it again is the fix; absent when a secret is on it.
   */
  rerunCommand?: string;
}

/**
 * Runs hark with `argv` (without the program name).
 *
 * @param ctx the context
 * @param argv the arguments
 * @param root the command tree; default {@link buildRoot} with the API catalogue of the
 *   context's catalogue folder
 */
export async function runCli(
  ctx: Context,
  argv: string[],
  root: CommandSpec = buildRoot(undefined, catalogueRef(ctx)),
): Promise<CliOutcome> {
  let parsed: ParsedArgv | undefined;
  const outcome = (error?: HarkError): CliOutcome => ({
    code: error ? error.code : 0,
    error,
    json: wantsJson(argv),
    debug: argv.includes("--debug") || debugFromEnv(ctx),
    noColor: argv.includes("--no-color"),
    helpCommand: `${chainName(parsed?.chain ?? [root])} --help`,
    rerunCommand: rerunCommand(argv),
  });
  try {
    if (argv[0] === "__complete") {
      // The completion scripts' question about API words: not a command of the tree.
      const { runComplete } = await import("./completion/complete_words.ts");
      await runComplete(ctx, root, argv.slice(1));
      return outcome();
    }
    parsed = await parseArgv(root, argv);
    if (parsed.error) throw parsed.error;
    if (parsed.version && !parsed.help) {
      ctx.stdout.write(`${VERSION}\n`);
      return outcome();
    }
    const command = commandOf(parsed.chain);
    if (parsed.help || argv.length === 0 || !command.run) {
      const columns = ctx.stdout.isTerminal ? ctx.stdout.columns : undefined;
      const more = command.moreHeading && command.moreCommands
        ? { heading: command.moreHeading, commands: await command.moreCommands() }
        : undefined;
      const text = renderHelp(parsed.chain, await subcommandsOf(command), { width: columns, more });
      ctx.stdout.write(text);
      return outcome();
    }
    if (ctx.stdin.isTerminal && ctx.stdout.isTerminal) {
      // A person can give the file keychain's password (HARK_KEYCHAIN_PASSWORD unset).
      ctx.configureKeychain?.({
        askPassword: async (creating) =>
          (await import("./keychain_password.ts")).askKeychainPassword(ctx, creating),
      });
    }
    const globals = readGlobals(ctx, parsed.globals);
    const { chain, flags, args } = parsed;
    const runCommand = command.run;
    const run = (runCtx: Context) =>
      runCommand({ ctx: runCtx, path: chain.slice(1).map((c) => c.name), flags, args, globals });
    if (globals.jq === undefined) await run(ctx);
    else {
      const { runWithJq } = await import("./jq_output.ts");
      await runWithJq(ctx, globals.jq, run, chainName(chain));
    }
    return outcome();
  } catch (thrown) {
    const flag = parsed?.globals.profile;
    // Loaded only on failure: the config module is not needed to print help or the version.
    const { withProfileNamed } = await import("./profile_recovery.ts");
    return outcome(
      await withProfileNamed(ctx, toHarkError(thrown), typeof flag === "string" ? flag : undefined),
    );
  }
}

/** Flags whose value is a secret: a command line holding one is never printed back. */
const SECRET_FLAGS: ReadonlySet<string> = new Set(["--app-secret"]);

/**
 * The command line `hark <argv>`, each word quoted for a POSIX shell when it needs it, so that
 * pasting it runs the same command; `undefined` when a secret flag's value is on it.
 *
 * @param argv the arguments as typed
 */
export function rerunCommand(argv: readonly string[]): string | undefined {
  for (const word of argv) {
    if (word === "--") break;
    if (SECRET_FLAGS.has(word.split("=")[0])) return undefined;
  }
  return ["hark", ...argv.map(shellQuote)].join(" ");
}

function wantsJson(argv: string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") break;
    if (argv[i] === "--json" || argv[i] === "--format=json") return true;
    // --jq implies JSON, errors included.
    if (argv[i] === "--jq" || argv[i].startsWith("--jq=")) return true;
    if (argv[i] === "--format" && argv[i + 1] === "json") return true;
  }
  return false;
}

/** How an error is printed. */
export interface ErrorStyle {
  /** Print the JSON envelope rather than text. */
  json: boolean;
  /** Colour the text. */
  color: boolean;
  /** The width to wrap the text to: stderr's, when it is a terminal. */
  width?: number;
}

/**
 * How to print the error of an outcome: JSON when the flags asked for it or
 * `preferences.output_format` is `json`; colour unless `--no-color`, `NO_COLOR`,
 * `preferences.color = false`, `TERM=dumb` or stderr is not a terminal; wrapped to stderr's width
 * when it is a terminal (its own, else `COLUMNS`, else 80). The config is read only
 * when the flags leave something open, and an unreadable config changes nothing.
 *
 * @param ctx the context
 * @param outcome the outcome of {@link runCli}
 */
export async function errorStyle(ctx: Context, outcome: CliOutcome): Promise<ErrorStyle> {
  const [{ colorEnabled }, { terminalWidth }] = await Promise.all([
    import("../output/color.ts"),
    import("../output/output.ts"),
  ]);
  let preferences: { output_format?: string; color?: boolean } | undefined;
  if (!outcome.json || !outcome.noColor) {
    try {
      const { loadConfig } = await import("../config/mod.ts");
      preferences = (await loadConfig(ctx)).preferences;
    } catch {
      preferences = undefined;
    }
  }
  return {
    json: outcome.json || preferences?.output_format === "json",
    color: colorEnabled(ctx, ctx.stderr, {
      color: !outcome.noColor,
      preference: preferences?.color,
    }),
    // Measured as a table on stdout is, from stderr's own width.
    width: ctx.stderr.isTerminal ? terminalWidth({ env: ctx.env, stdout: ctx.stderr }) : undefined,
  };
}
