/**
 * Running a tool call: the shortcut's lifecycle exactly as on the command line (`runShortcut`),
 * on one session shared by every call of the server (one token source per identity, so
 * concurrent calls share one refresh), with its output captured instead of written, and every
 * failure turned into a tool error carrying the envelope. Nothing here ever prompts, and no
 * argument reaches a local file outside the `--files` folder.
 *
 * @module
 */

import { IDENTITIES, type Identity } from "../auth/identity.ts";
import { buildApiRequest } from "../api_call/api_request.ts";
import type { Session } from "../session/session.ts";
import type { Context } from "../context.ts";
import { singleLine, toHarkError, ValidationError } from "../errors/mod.ts";
import type { ApiCaller } from "../shortcuts/definition.ts";
import { type ApiRequest, previewRequest } from "../http/request.ts";
import { maskFields } from "../http/mask_fields.ts";
import { isOneOf } from "../json/is_one_of.ts";
import { runShortcut, type ShortcutSession } from "../shortcuts/lifecycle.ts";
import { identitiesOf } from "../shortcuts/definition.ts";
import { apiOptionsOf } from "./api_tool.ts";
import { runMethodCall } from "./method_call.ts";
import { terminalAdvice } from "./terminal_advice.ts";
import { callContext } from "./call_context.ts";

export { EMPTY_STDIN } from "./call_context.ts";
import { progressReporter, type ProgressSink } from "./progress.ts";
import { DerivedKeys } from "./derived_key.ts";
import { type FilesFolder, localPathOf, resolveLocalPath } from "./local_files.ts";
import { errorResult, successResult, type ToolOutput, type ToolResult } from "./tool_result.ts";
import { fitListing, type PageRequest, pageRequestOf, PAGING_ARGUMENTS } from "./result_page.ts";
import type { ExposedTool } from "./tool_set.ts";
import {
  checkMaximums,
  EXTRA_ARGUMENTS,
  flagsToArguments,
  type ShortcutTool,
} from "./tool_schema.ts";

/** What a {@link ToolRunner} needs. */
export interface ToolRunnerOptions {
  /** Opens a session (config, profile, token sources); called again after a sign-in problem. */
  openSession(): Promise<Session>;
  /** `hark mcp --as`: the identity of every call. */
  identity?: Identity;
  /** `hark mcp --dry-run`: every call only previews. */
  dryRun: boolean;
  /** `hark mcp --files`: the one folder tools may read from and write to; else none. */
  files?: FilesFolder;
}

/**
 * The deepest nesting of arguments taken: far beyond what any tool's arguments need, far below
 * what would exhaust the stack of a recursive walk (masking, canonical JSON, binding).
 */
export const MAX_ARGUMENT_DEPTH = 32;

/** Runs the calls of one server. */
export class ToolRunner {
  readonly #ctx: Context;
  readonly #options: ToolRunnerOptions;
  readonly #keys: DerivedKeys;
  #session?: Promise<Session>;

  /**
   * @param ctx the server's context (its stdout must not be the protocol's)
   * @param options how sessions are opened and what the server's flags fixed
   */
  constructor(ctx: Context, options: ToolRunnerOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#keys = new DerivedKeys(() => ctx.now());
  }

  /**
   * The session every call shares, opened on first use.
   *
   * @throws {HarkError} when the config cannot be read
   */
  session(): Promise<Session> {
    const opening = this.#session ??= this.#options.openSession();
    opening.catch(() => {
      if (this.#session === opening) this.#session = undefined;
    });
    return opening;
  }

  /**
   * Runs one call. Never throws: a failure is a tool error.
   *
   * @param entry the tool
   * @param args the arguments as the client sent them
   * @param signal aborted when the client cancels the call
   * @param progress where progress goes when the client asked for it (`progress.ts`)
   */
  async call(
    entry: ExposedTool,
    args: unknown,
    signal: AbortSignal,
    progress?: ProgressSink,
  ): Promise<ToolResult> {
    const started = this.#ctx.now();
    const name = entry.tool.name;
    // Nothing walks the arguments before their nesting is known to be bounded.
    const deep = nestedDeeperThan(args, MAX_ARGUMENT_DEPTH);
    this.#ctx.debug(
      `mcp: call ${name} ${
        deep ? "(arguments nested too deep)" : JSON.stringify(maskFields(args ?? {}))
      }`,
    );
    const rewrite = entry.kind === "shortcut"
      ? (text: string) => flagsToArguments(text, entry.shortcut.shortcut.params.map((p) => p.name))
      : (text: string) => text;
    let session: Session | undefined;
    try {
      if (deep) {
        throw new ValidationError(
          `Invalid arguments: nested more than ${MAX_ARGUMENT_DEPTH} levels deep`,
          { suggestion: `Give the arguments of ${name} as its input schema describes them` },
        );
      }
      const checked = checkArguments(entry, args);
      if (entry.kind === "shortcut") await this.#checkLocalPaths(entry.shortcut, checked);
      const page = entry.kind === "shortcut" && entry.shortcut.listing
        ? await pageRequestOf(name, checked.values)
        : undefined;
      session = await this.session();
      const output = entry.kind === "shortcut"
        ? await this.#runShortcut(session, entry.shortcut, checked, { signal, page, progress })
        : entry.kind === "method"
        ? await runMethodCall({
          session,
          entry: entry.method,
          values: checked.values,
          identity: this.#options.identity ?? checked.as ?? entry.method.method.identities[0],
          dryRun: this.#options.dryRun || checked.dryRun,
          keys: this.#keys,
          signal,
        })
        : await this.#runApi(session, entry, checked, signal);
      this.#ctx.debug(`mcp: ${name} succeeded in ${this.#ctx.now() - started} ms`);
      return successResult(output, page);
    } catch (thrown) {
      const error = toHarkError(thrown);
      this.#ctx.debug(
        `mcp: ${name} failed in ${this.#ctx.now() - started} ms: ${error.type}: ` +
          singleLine(error.message),
      );
      if (session && (error.type === "auth" || error.type === "permission")) {
        // A sign-in in a terminal while the server runs is picked up by the next call.
        this.#forget(session);
      }
      return errorResult(error, {
        helpCommand: this.#helpCommand(entry),
        rewrite,
        advice: terminalAdvice(error),
      });
    }
  }

  /**
   * Replaces every argument that names a local file with its absolute path inside the
   * `--files` folder, before anything is read, written or sent.
   *
   * @throws {ValidationError} naming the argument when local files are off or the path leads
   *   outside the folder
   */
  async #checkLocalPaths(entry: ShortcutTool, args: CheckedArguments): Promise<void> {
    const rules = {
      folder: this.#options.files,
      os: this.#ctx.os,
      realPath: (path: string) => this.#ctx.fs.realPath(path),
    };
    for (const [name, param] of entry.params) {
      const access = localPathOf(param);
      if (access === undefined || args.values[name] === undefined) continue;
      args.values[name] = await resolveLocalPath(rules, name, access, args.values[name]);
    }
  }

  /**
   * Refuses a call that deletes or overwrites without `yes: true`: a destructive tool's, or one
   * with a switch on that replaces a file on this machine.
   *
   * @throws {ValidationError} naming `yes`
   */
  #requireYes(entry: ShortcutTool, args: CheckedArguments): void {
    const replacing = entry.replaceSwitches.filter((name) => args.values[name] === true);
    if (!entry.needsYes && replacing.length === 0) return;
    const what = entry.shortcut.effect === "delete"
      ? "it deletes data"
      : entry.needsYes
      ? "it may overwrite or remove data in Lark with no way back"
      : `with ${replacing.map((name) => `${name}: true`).join(", ")} it replaces a file ` +
        "already there";
    throw new ValidationError(`Cannot run ${entry.tool.name} without confirmation: ${what}`, {
      param: EXTRA_ARGUMENTS.yes,
      suggestion: "Confirm with the person you act for, then call again with yes: true " +
        (entry.needsYes ? "(or preview with dry_run: true)" : `(or leave out ${replacing[0]})`),
    });
  }

  /**
   * The arguments for a derived key, with the size and modification time of each file the call
   * uploads: the same path with new content is another call.
   */
  async #withFileStamps(
    entry: ShortcutTool,
    values: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const stamped: Record<string, unknown> = { ...values };
    delete stamped[EXTRA_ARGUMENTS.yes];
    delete stamped[EXTRA_ARGUMENTS.dryRun];
    delete stamped[EXTRA_ARGUMENTS.as]; // the identity that acts is part of the key anyway
    for (const [name, param] of entry.params) {
      const path = values[name];
      if (localPathOf(param) !== "read" || typeof path !== "string") continue;
      const info = await this.#ctx.fs.stat(path).catch(() => undefined);
      stamped[name] = {
        path,
        size: info?.size,
        mtime: await this.#ctx.fs.mtime(path).catch(() => undefined),
      };
    }
    return stamped;
  }

  #forget(session: Session): void {
    const current = this.#session;
    current?.then((s) => {
      if (s === session && this.#session === current) this.#session = undefined;
    }, () => undefined);
  }

  #helpCommand(entry: ExposedTool): string {
    if (entry.kind === "api") return "hark api --help";
    if (entry.kind === "method") return `hark schema ${entry.method.method.id}`;
    const { service, verb } = entry.shortcut.shortcut;
    return `hark schema ${service} ${verb}`;
  }

  async #runShortcut(
    session: Session,
    entry: ShortcutTool,
    args: CheckedArguments,
    { signal, page, progress }: {
      signal: AbortSignal;
      page?: PageRequest;
      progress?: ProgressSink;
    },
  ): Promise<ToolOutput> {
    const { shortcut } = entry;
    const dryRun = this.#options.dryRun || args.dryRun;
    if (!dryRun && args.values[EXTRA_ARGUMENTS.yes] !== true) this.#requireYes(entry, args);
    const identity = this.#options.identity ?? args.as ?? identitiesOf(shortcut)[0];
    const key = entry.keyArgument;
    if (key !== undefined && args.values[key] === undefined) {
      args.values[key] = await this.#keys.keyOf({
        tool: entry.tool.name,
        profile: session.profile,
        identity,
        arguments: await this.#withFileStamps(entry, args.values),
      });
    }
    const argv: Record<string, unknown> = {};
    for (const [name, param] of entry.params) {
      // A safety limit not given is its default here, not what the server's environment says.
      argv[param.name] = args.values[name] ??
        (param.mcpMaximum !== undefined ? param.default : undefined);
    }
    const limit = shortcut.params.find((p) => p.name === PAGING_ARGUMENTS.limit);
    const ownLimit = limit &&
      { default: typeof limit.default === "number" ? limit.default : undefined };
    const fields = page && fitListing(argv, page, ownLimit, args.values.fields);
    const call = callContext(
      session.ctx,
      signal,
      progress && progressReporter(this.#ctx, progress),
    );
    const shortcutSession: ShortcutSession = {
      ctx: call.ctx,
      config: session.config,
      profile: session.profile,
      dryRun,
      as: this.#options.identity ?? args.as,
      output: { format: "json", color: false, fields },
      baseUrl: () => session.baseUrl(),
      async connect(identity) {
        const client = session.client(identity);
        await session.tokens(identity).getToken();
        return cancellable(client, signal);
      },
      // Never a prompt: a shortcut that asks is answered by `yes`.
      confirm: () => Promise.resolve(args.values[EXTRA_ARGUMENTS.yes] === true),
    };
    await runShortcut(shortcutSession, shortcut, { argv });
    return {
      command: `hark ${shortcut.service} ${shortcut.verb}`,
      data: call.data(),
      dryRun,
      warnings: call.warnings(),
    };
  }

  async #runApi(
    session: Session,
    entry: Extract<ExposedTool, { kind: "api" }>,
    args: CheckedArguments,
    signal: AbortSignal,
  ): Promise<ToolOutput> {
    const dryRun = this.#options.dryRun || args.dryRun;
    const call = callContext(session.ctx, signal);
    const request = await buildApiRequest(call.ctx, apiOptionsOf(entry.api, args.values, dryRun));
    const output = { command: "hark api", dryRun, warnings: [] };
    if (dryRun) return { ...output, data: [previewRequest(session.baseUrl(), request)] };
    const identity = this.#options.identity ?? args.as;
    const client = session.client(identity);
    // Checked before the request, as by a method call (`method_call.ts`).
    await session.tokens(identity).getToken();
    const data = await client.request({ ...request, signal });
    return { ...output, data: data ?? {} };
  }
}

/** A call's arguments after the checks every tool shares. */
interface CheckedArguments {
  /** Every argument given, by argument name (`null` ones left out). */
  values: Record<string, unknown>;
  /** `as`. */
  as?: Identity;
  /** `dry_run`. */
  dryRun: boolean;
}

/**
 * Checks what the schema says about the arguments: an object, known names, the required ones
 * present, the extra arguments' types, and the `maximum` of safety limits. The parameters' own types are checked by the
 * shortcut's binding, with the same messages as on the command line.
 */
function checkArguments(entry: ExposedTool, args: unknown): CheckedArguments {
  if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
    throw new ValidationError("Invalid arguments: expected a JSON object", {
      suggestion: `Give the arguments of ${entry.tool.name} as an object`,
    });
  }
  const schema = entry.tool.inputSchema;
  const known = Object.keys(schema.properties ?? {});
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args ?? {})) {
    if (!known.includes(key)) {
      throw new ValidationError(`Unknown argument "${key}" for ${entry.tool.name}`, {
        param: key,
        suggestion: `Known arguments: ${known.join(", ")}`,
      });
    }
    if (value !== null && value !== undefined) values[key] = value;
  }
  for (const name of schema.required ?? []) {
    if (values[name] === undefined) {
      throw new ValidationError(`Missing required argument "${name}" for ${entry.tool.name}`, {
        param: name,
        suggestion: `Give ${name}: ${schema.properties?.[name]?.description ?? ""}`.trim(),
      });
    }
  }
  for (const name of [EXTRA_ARGUMENTS.dryRun, EXTRA_ARGUMENTS.yes]) {
    if (values[name] !== undefined && typeof values[name] !== "boolean") {
      throw new ValidationError(`Invalid argument "${name}": expected true or false`, {
        param: name,
      });
    }
  }
  checkMaximums(schema, values);
  const as = values[EXTRA_ARGUMENTS.as];
  const identities = schema.properties?.[EXTRA_ARGUMENTS.as]?.enum ?? [];
  if (as !== undefined && !(isOneOf(IDENTITIES, as) && identities.includes(as))) {
    throw new ValidationError(
      `Invalid argument "as": expected one of ${identities.map((i) => `"${i}"`).join(", ")}`,
      { param: EXTRA_ARGUMENTS.as },
    );
  }
  return {
    values,
    as,
    dryRun: values[EXTRA_ARGUMENTS.dryRun] === true,
  };
}

/**
 * Whether a JSON value nests deeper than `limit` levels (a scalar is 0, `{}` is 1), found
 * without recursion, so that no nesting can exhaust the stack.
 *
 * @param value the value
 * @param limit the deepest nesting allowed
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** The client of a call: every request is cancelled with the call (clean-ups excepted). */
function cancellable(client: ApiCaller, signal: AbortSignal): ApiCaller {
  const withSignal = (request: ApiRequest): ApiRequest =>
    request.cleanup ? request : {
      ...request,
      signal: request.signal ? AbortSignal.any([request.signal, signal]) : signal,
    };
  return {
    request: (request) => client.request(withSignal(request)),
    download: (request, target) => client.download(withSignal(request), target),
  };
}
