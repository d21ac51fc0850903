/**
 * `--jq`: a real jq (jq 1.7 compiled to WebAssembly, the `jq-wasm` package) run over a command's
 * JSON output, as GitHub's CLI does: each result on its own line, strings written raw, anything
 * else as compact JSON.
 *
 * The package carries its WebAssembly inside its JavaScript (a `data:` URL), so the bundle and
 * `deno compile` include it and nothing is fetched at run time. It is about 1.3 MB and takes
 * 50-120 ms to load, so it is imported only when `--jq` is given ({@link loadJq}).
 *
 * @module
 */

import process from "node:process";
import { ValidationError } from "../errors/mod.ts";
import { escapeJsonText } from "./output.ts";
import { terminalSafe } from "./terminal_safe.ts";

/** A loaded jq: runs a filter over JSON text and returns what jq wrote. */
export interface JqEngine {
  /**
   * Runs `filter` over `input` (one or more JSON values) with jq's `-c`: one result a line.
   *
   * @throws {Error} with jq's message when the filter does not compile or fails on the input
   */
  run(input: string, filter: string): Promise<string>;
}

/** Loads jq on first use; later calls get the same engine. */
let loaded: Promise<JqEngine> | undefined;

/**
 * Loads the jq engine (the only import of `jq-wasm`, so nothing else pays for it).
 *
 * @returns the engine
 */
export function loadJq(): Promise<JqEngine> {
  loaded ??= import("jq-wasm").then((module) => ({
    async run(input: string, filter: string) {
      // jq's runtime, built for Node, sets the process's exit code when jq fails; hark's exit
      // code is the error's, decided by main.ts, so the code from before is put back.
      const exitCode = process.exitCode;
      try {
        return await withDirname(() => rawOf(module)(input, filter, ["-c"]));
      } finally {
        process.exitCode = exitCode;
      }
    },
  }));
  return loaded;
}

/**
 * The package's `raw` function: Deno gives a CommonJS module's exports as named exports, the
 * bundler (`deno bundle`) only as its default export.
 */
function rawOf(module: typeof import("jq-wasm")): typeof module.raw {
  if (typeof module.raw === "function") return module.raw;
  const exports: unknown = Reflect.get(module, "default");
  const raw: unknown = typeof exports === "object" && exports !== null
    ? Reflect.get(exports, "raw")
    : undefined;
  if (typeof raw !== "function") throw new Error("The jq-wasm package exports no raw()");
  return (input, filter, flags) =>
    Promise.resolve(Reflect.apply(raw, exports, [input, filter, flags]));
}

/**
 * Calls `start` with a global `__dirname` while it runs synchronously. The package's Emscripten
 * loader, built for Node, reads `__dirname` when it starts (to find a .wasm file it never reads:
 * the WebAssembly is inside it); CommonJS code run by Deno has one, the same code in a bundle
 * does not. The global is removed again at once.
 */
function withDirname<T>(start: () => T): T {
  if ("__dirname" in globalThis) return start();
  Reflect.set(globalThis, "__dirname", ".");
  try {
    return start();
  } finally {
    Reflect.deleteProperty(globalThis, "__dirname");
  }
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
export async function checkJqFilter(engine: JqEngine, filter: string): Promise<void> {
  try {
    await engine.run("null", filter);
  } catch (error) {
    if (!fromJq(error)) throw error;
    const message = jqMessage(error);
    // A filter that compiles may still fail on null (`.[]`): only the real output can tell.
    if (COMPILE_ERROR.test(message)) {
      throw new ValidationError(`Invalid --jq expression ${quoted(filter)}: ${message}`, {
        param: "--jq",
        suggestion: "Fix the jq expression (see https://jqlang.org/manual/)",
      });
    }
  }
}

/**
 * Runs `filter` over a command's JSON output and returns the text to print: one line per
 * result, a string as its raw text (terminal controls escaped: the text comes from the
 * network), any other value as compact JSON.
 *
 * @param engine the jq engine
 * @param filter the `--jq` expression
 * @param json the command's JSON output (one or more JSON values)
 * @throws {ValidationError} naming the expression when jq fails on the output
 * @example
 * ```ts
 * await applyJq(await loadJq(), ".[].name", '[{"name":"Ann"}]'); // "Ann\n"
 * ```
 */
export async function applyJq(engine: JqEngine, filter: string, json: string): Promise<string> {
  if (json.trim() === "") return "";
  let out: string;
  try {
    out = await engine.run(json, filter);
  } catch (error) {
    if (!fromJq(error)) throw error;
    throw new ValidationError(
      `The --jq expression ${quoted(filter)} failed on the output: ${jqMessage(error)}`,
      { param: "--jq", suggestion: "Check the expression against the output of --json" },
    );
  }
  return out.split("\n").filter((line) => line !== "").map((line) => `${resultLine(line)}\n`)
    .join("");
}

/** One result of jq's `-c` output as printed: a string raw, anything else as it is. */
function resultLine(line: string): string {
  if (line.startsWith('"')) {
    const value: unknown = JSON.parse(line);
    if (typeof value === "string") return terminalSafe(value);
  }
  return escapeJsonText(line);
}

/** Whether jq itself failed (its messages start with `jq: `), not the code around it. */
function fromJq(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("jq: ");
}

function jqMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return terminalSafe(text.trim(), { breaks: "space" });
}

function quoted(filter: string): string {
  return JSON.stringify(terminalSafe(filter, { breaks: "space" }));
}
