/**
 * `--jq`: a real jq (jq 1.8 compiled to WebAssembly, the `jq-wasm` package) run over a command's
 * JSON output, as GitHub's CLI does: each result on its own line, strings written raw, anything
 * else as compact JSON.
 *
 * The package's `inline` build carries its WebAssembly inside its JavaScript (as base64), so the
 * bundle and `deno compile` include it and nothing is read or fetched at run time. It is about
 * 1.3 MB, so it is imported only when `--jq` is given ({@link loadJq}).
 *
 * jq runs in its own memory, with its own file system and environment: a filter sees no file of
 * the machine and none of hark's environment (`$ENV` holds the runtime's placeholders).
 *
 * @module
 */

import process from "node:process";
import { ValidationError } from "../errors/mod.ts";
import { escapeJsonText } from "./output.ts";
import { terminalSafe } from "./terminal_safe.ts";

/** What one run of jq wrote, and how it ended. */
export interface JqResult {
  /** jq's standard output: with `-c`, one result a line. */
  stdout: string;
  /** jq's standard error: its error, or what `debug` and `stderr` wrote. */
  stderr: string;
  /**
   * jq's exit status: 0 when it ran to the end, 3 when the filter does not compile, 5 when it
   * failed on the input, what `halt_error` gave; {@link JQ_CRASHED} when jq itself broke down.
   */
  exitCode: number;
}

/**
 * The status of a run in which jq ran out of its memory (256 MB, the package's limit) or of
 * stack: a very large output, or a filter that never ends or recurses without end.
 */
export const JQ_CRASHED = -1;

/** A loaded jq. */
export interface JqEngine {
  /**
   * Runs `filter` over `input` (JSON values; none compiles the filter without running it) with
   * jq's `-c`: one result a line. The filter comes after `--`, so it is never read as an option.
   */
  run(input: string, filter: string): JqResult;
}

/** Loads jq on first use; later calls get the same engine, until one breaks down. */
let loaded: Promise<JqEngine> | undefined;

/**
 * Loads the jq engine (the only import of `jq-wasm`, so nothing else pays for it).
 *
 * @returns the engine
 */
export function loadJq(): Promise<JqEngine> {
  const loading = import("jq-wasm/inline").then(async ({ loadJq }) => {
    const jq = await loadJq();
    return {
      run(input: string, filter: string): JqResult {
        // jq's runtime sets the process's exit code; hark's exit code is the error's, decided by
        // main.ts, so the code from before is put back.
        const exitCode = process.exitCode;
        try {
          return jq.raw(input, filter, ["-c", "--"]);
        } catch (error) {
          // Out of memory or stack: the WebAssembly instance is left unusable.
          if (!(error instanceof WebAssembly.RuntimeError || error instanceof RangeError)) {
            throw error;
          }
          if (loaded === loading) loaded = undefined;
          const stderr = "jq ran out of memory (it has 256 MB) or of stack";
          return { stdout: "", stderr, exitCode: JQ_CRASHED };
        } finally {
          process.exitCode = exitCode;
        }
      },
    };
  });
  loaded ??= loading;
  return loaded;
}

/**
 * Checks that `filter` compiles, before the command runs (a write is never made for output
 * that cannot be filtered). jq compiles it over no input at all, so the filter does not run:
 * one that never ends cannot hang the check.
 *
 * @param engine the jq engine
 * @param filter the `--jq` expression
 * @throws {ValidationError} naming the expression and quoting jq's message
 */
export function checkJqFilter(engine: JqEngine, filter: string): void {
  const { stderr, exitCode } = engine.run("", filter);
  if (exitCode !== 0) {
    throw new ValidationError(`Invalid --jq expression ${quoted(filter)}: ${jqMessage(stderr)}`, {
      param: "--jq",
      suggestion: "Fix the jq expression (see https://jqlang.org/manual/)",
    });
  }
}

/** Where {@link printJq} writes: the results, and what jq wrote on its standard error. */
export interface JqSinks {
  /** Takes the results, one line each. */
  stdout(text: string): void;
  /** Takes what `debug` and `stderr` wrote, terminal-safe. */
  stderr(text: string): void;
}

/**
 * Runs `filter` over a command's JSON output and writes the results: one line per result, a
 * string as its raw text (terminal controls escaped: the text comes from the network), any
 * other value as compact JSON. When jq fails part way, the results it made before are written
 * first, as jq itself does; what `debug` and `stderr` wrote goes to `sinks.stderr` either way.
 *
 * @param engine the jq engine
 * @param filter the `--jq` expression
 * @param json the command's JSON output (one or more JSON values)
 * @param sinks where the results and jq's messages go
 * @throws {ValidationError} naming the expression and quoting jq when it fails on the output
 * @example
 * ```ts
 * printJq(await loadJq(), ".[].name", '[{"name":"Ann"}]', sinks); // sinks.stdout("Ann\n")
 * ```
 */
export function printJq(engine: JqEngine, filter: string, json: string, sinks: JqSinks): void {
  if (json.trim() === "") return;
  const { stdout, stderr, exitCode } = engine.run(json, filter);
  const results = stdout.split("\n").filter((line) => line !== "");
  if (results.length > 0) sinks.stdout(results.map((line) => `${resultLine(line)}\n`).join(""));
  const [said, error] = exitCode === 0 ? [stderr, ""] : splitError(stderr);
  if (said.trim() !== "") sinks.stderr(`${terminalSafe(said.trim())}\n`);
  if (exitCode === 0) return;
  const message = error.trim() === "" ? `jq stopped with exit status ${exitCode}` : error;
  throw new ValidationError(
    `The --jq expression ${quoted(filter)} failed on the output: ${jqMessage(message)}`,
    {
      param: "--jq",
      suggestion: exitCode === JQ_CRASHED
        ? "Narrow the output (a shorter span, --limit) or give the expression an end; jq has " +
          "256 MB of memory"
        : "Check the expression against the output of --json",
    },
  );
}

/**
 * A failed run's standard error as what the filter wrote (`debug`, `stderr`) and jq's error: the
 * error starts at the first line that starts with `jq: error`; without one (`halt_error`), it is
 * all of it.
 */
function splitError(stderr: string): [said: string, error: string] {
  const at = stderr.startsWith("jq: error") ? 0 : stderr.indexOf("\njq: error") + 1;
  return at > 0 ? [stderr.slice(0, at), stderr.slice(at)] : ["", stderr];
}

/** One result of jq's `-c` output as printed: a string raw, anything else as it is. */
function resultLine(line: string): string {
  if (line.startsWith('"')) {
    const value: unknown = JSON.parse(line);
    if (typeof value === "string") return terminalSafe(value);
  }
  return escapeJsonText(line);
}

/** The most characters of jq's message an error quotes (`halt_error` may give any value). */
const MAX_MESSAGE = 2000;

function jqMessage(text: string): string {
  // jq reads the output as its standard input, which it names /dev/stdin here and <stdin> itself.
  const message = terminalSafe(text.trim().replaceAll("(at /dev/stdin:", "(at <stdin>:"), {
    breaks: "space",
  });
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

function quoted(filter: string): string {
  return JSON.stringify(terminalSafe(filter, { breaks: "space" }));
}
