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
  /** jq's exit status: 0 when it ran to the end, 3 when the filter does not compile. */
  exitCode: number;
}

/** A loaded jq. */
export interface JqEngine {
  /** Runs `filter` over `input` (one or more JSON values) with jq's `-c`: one result a line. */
  run(input: string, filter: string): JqResult;
}

/** Loads jq on first use; later calls get the same engine. */
let loaded: Promise<JqEngine> | undefined;

/**
 * Loads the jq engine (the only import of `jq-wasm`, so nothing else pays for it).
 *
 * @returns the engine
 */
export function loadJq(): Promise<JqEngine> {
  loaded ??= import("jq-wasm/inline").then(async ({ loadJq }) => {
    const jq = await loadJq();
    return {
      run(input: string, filter: string) {
        // jq's runtime, built for Node, sets the process's exit code; hark's exit code is the
        // error's, decided by main.ts, so the code from before is put back.
        const exitCode = process.exitCode;
        try {
          return jq.raw(input, filter, ["-c"]);
        } finally {
          process.exitCode = exitCode;
        }
      },
    };
  });
  return loaded;
}

/** What jq's message says when the filter itself is wrong, whatever the input. */
const COMPILE_ERROR = /\bcompile errors?\b/;

/**
 * Checks that `filter` compiles, before the command runs (a write is never made for output
 * that cannot be filtered).
 *
 * @param engine the jq engine
 * @param filter the `--jq` expression
 * @throws {ValidationError} naming the expression and quoting jq's message
 */
export function checkJqFilter(engine: JqEngine, filter: string): void {
  const { stderr, exitCode } = engine.run("null", filter);
  // A filter that compiles may still fail on null (`.[]`): only the real output can tell.
  if (exitCode === 3 && COMPILE_ERROR.test(stderr)) {
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
  /** Takes the lines of `debug` and `stderr`, terminal-safe, when jq succeeded. */
  stderr(text: string): void;
}

/**
 * Runs `filter` over a command's JSON output and writes the results: one line per result, a
 * string as its raw text (terminal controls escaped: the text comes from the network), any
 * other value as compact JSON. When jq fails part way, the results it made before are written
 * first, as jq itself does.
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
  if (exitCode !== 0) {
    const message = stderr.trim() === "" ? `jq stopped with exit status ${exitCode}` : stderr;
    throw new ValidationError(
      `The --jq expression ${quoted(filter)} failed on the output: ${jqMessage(message)}`,
      { param: "--jq", suggestion: "Check the expression against the output of --json" },
    );
  }
  if (stderr.trim() !== "") sinks.stderr(`${terminalSafe(stderr.trim())}\n`);
}

/** One result of jq's `-c` output as printed: a string raw, anything else as it is. */
function resultLine(line: string): string {
  if (line.startsWith('"')) {
    const value: unknown = JSON.parse(line);
    if (typeof value === "string") return terminalSafe(value);
  }
  return escapeJsonText(line);
}

function jqMessage(text: string): string {
  return terminalSafe(text.trim(), { breaks: "space" });
}

function quoted(filter: string): string {
  return JSON.stringify(terminalSafe(filter, { breaks: "space" }));
}
