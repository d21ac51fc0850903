/**
 * `hark mcp`: checks its flags and picks the tools (a mistake exits 2 before anything starts),
 * opens the one session every call shares, then serves MCP on stdin and stdout until the host
 * closes the connection. Logs go to stderr; nothing but the protocol reaches stdout.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { GlobalOptions } from "../session/global_options.ts";
import { openSession } from "../session/session.ts";
import { withDebug } from "../session/with_debug.ts";
import { loadServices } from "../shortcuts/services.ts";
import { confinedFiles } from "./confined_files.ts";
import { type FilesFolder, openFilesFolder } from "./local_files.ts";
import { EMPTY_STDIN, ToolRunner } from "./tool_runner.ts";
import { selectMethodTools, splitToolEntries } from "./method_tools.ts";
import { selectTools, type ToolSetOptions } from "./tool_set.ts";

/** The API catalogue of the context, its code loaded only when `--tools` names methods. */
async function openCatalogue(ctx: Context) {
  const { Catalogue, fileCatalogueSource } = await import("../catalogue/catalogue.ts");
  return new Catalogue(fileCatalogueSource(ctx));
}

/**
 * The flags of `hark mcp` as parsed, by name; absent when not given. The command line declares
 * them (`MCP_FLAGS` in `src/cli/mcp/mcp.ts`), and its typed values must be assignable to this.
 */
export interface McpFlagValues {
  /** `--read-only`. */
  "read-only"?: true;
  /** `--tools`, once per time given. */
  tools?: string[];
  /** `--services`, once per time given. */
  services?: string[];
  /** `--allow-raw-api`. */
  "allow-raw-api"?: true;
  /** `--files`. */
  files?: string;
}

/**
 * What `hark mcp` starts from: the command's context, the global options and its own flags as
 * parsed (the command line's `CommandCall` is one; the server needs nothing else of it).
 */
export interface McpCall {
  /** The command's context. */
  ctx: Context;
  /** The global options (`--as`, `--profile`, `--dry-run`, `--debug` …). */
  globals: GlobalOptions;
  /** The flags of `hark mcp`. */
  flags: McpFlagValues;
}

/** The flags of `hark mcp` besides the global ones, checked. */
export interface McpFlags {
  /** `--read-only`. */
  readOnly: boolean;
  /** `--tools`, split at commas. */
  tools?: string[];
  /** `--services`, split at commas. */
  services?: string[];
  /** `--allow-raw-api`. */
  allowRawApi: boolean;
  /** `--files`: the folder tools may read from and write to, as given. */
  files?: string;
}

/**
 * Reads the flags of `hark mcp`: `--tools` and `--services` take comma-separated names and may be
 * repeated.
 *
 * @param flags the parsed flags
 */
export function readMcpFlags(flags: McpFlagValues): McpFlags {
  const names = (given: string[] | undefined): string[] | undefined =>
    given?.flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
  return {
    readOnly: flags["read-only"] === true,
    tools: names(flags.tools),
    services: names(flags.services),
    allowRawApi: flags["allow-raw-api"] === true,
    files: flags.files,
  };
}

/**
 * The server's context: stdin and stdout belong to the protocol, so nothing else reads stdin
 * (it is empty and not a terminal: nothing can prompt), anything else that would write to stdout
 * (by mistake) lands on stderr, and there is no status line; the files users name (uploads,
 * downloads) are checked against the `--files` folder once opened ({@link confinedFiles}).
 *
 * @param ctx the command's context
 * @param files the `--files` folder, or `undefined` when local files are off
 */
export function protocolSafe(ctx: Context, files: FilesFolder | undefined): Context {
  return Object.create(ctx, {
    stdin: { value: EMPTY_STDIN, enumerable: true },
    stdout: { value: ctx.stderr, enumerable: true },
    status: { value: () => undefined, enumerable: true },
    fs: { value: confinedFiles(ctx.fs, files, ctx.os), enumerable: true },
  });
}

/**
 * Runs `hark mcp`.
 *
 * @param call the context, global options and flags of `hark mcp`
 * @throws {ValidationError} for an unknown tool or service, flags that leave no tool, a
 *   `--files` that is not an existing folder, a bad config or an unknown profile (before
 *   serving)
 */
export async function runMcpCommand(call: McpCall): Promise<void> {
  const flags = readMcpFlags(call.flags);
  const files: FilesFolder | undefined = flags.files === undefined
    ? undefined
    : await openFilesFolder(call.ctx, flags.files);
  const entries = splitToolEntries(flags.tools);
  const options: ToolSetOptions = {
    ...flags,
    tools: entries.shortcuts,
    identity: call.globals.as,
    timeZone: call.ctx.timeZone,
    files: files?.real,
  };
  const methods = entries.methods.length === 0 ? undefined : await selectMethodTools(
    await openCatalogue(call.ctx),
    entries.methods,
    { identity: call.globals.as },
  );
  const tools = selectTools(await loadServices(), options, methods);
  const safe = protocolSafe(call.ctx, files);
  const ctx = call.globals.debug ? withDebug(safe) : safe;
  const runner = new ToolRunner(ctx, {
    openSession: () => openSession(safe, call.globals),
    identity: call.globals.as,
    dryRun: call.globals.dryRun,
    files,
  });
  const session = await runner.session();
  session.baseUrl();
  const { serveMcp } = await import("./serve.ts");
  const log = (line: string) => call.ctx.stderr.write(`hark mcp: ${line}\n`);
  const leftOut = (methods?.tools ?? []).filter((m) => tools.hidden.has(m.tool.name));
  if (leftOut.length > 0) {
    log(
      `left out ${leftOut.length} API method${leftOut.length === 1 ? "" : "s"} --tools named: ` +
        leftOut.map((m) => `${m.tool.name} (${tools.hidden.get(m.tool.name)})`).join("; "),
    );
  }
  log(
    `serving ${tools.exposed.size} tools on stdin/stdout (profile "${session.profile}"` +
      `${call.globals.as ? `, as ${call.globals.as}` : ""}${flags.readOnly ? ", read-only" : ""}` +
      `${call.globals.dryRun ? ", dry run" : ""}; ` +
      (files ? `local files in "${files.real}" only` : "no local files (no --files)") +
      "); logs go to stderr",
  );
  await serveMcp({
    tools,
    runner,
    input: call.ctx.stdin.stream(),
    output: call.ctx.stdout,
    signal: call.ctx.signal,
    log,
  });
}
