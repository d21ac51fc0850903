/**
 * The shortcut lifecycle, in the spec's order: 1 parse, 2 load config, 3 match, 4 bind,
 * 5 validate, 6 dry-run stop, 7 resolve token, 8 build request, 9 call, 10 classify, 11 format.
 * The command layer does steps 1 and 2 and hands over a {@link ShortcutSession};
 * {@link runShortcut} does the rest.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { Identity } from "../auth/identity.ts";
import type { Config } from "../config/mod.ts";
import { ApiError, HarkError, toHarkError, ValidationError } from "../errors/mod.ts";
import type { DownloadTarget } from "../http/download.ts";
import { type ApiRequest, previewRequest } from "../http/request.ts";
import { resolvedTimeNotes } from "./resolved_times.ts";
import {
  collectedStream,
  formatJson,
  openDataStream,
  type OutputOptions,
  resolveFormat,
  writeData,
} from "../output/output.ts";
import { terminalSafe } from "../output/terminal_safe.ts";
import {
  type AnyShortcut,
  type ApiCaller,
  identitiesOf,
  type ShortcutInput,
  shortcutName,
} from "./definition.ts";
import { drawDryRun, uniquePreviews } from "./dry_run.ts";
import { bindParams } from "./input_sources.ts";
import { withRetryAdvice } from "./retry_advice.ts";

/** What a shortcut needs from the command that runs it (steps 1 and 2 done). */
export interface ShortcutSession {
  /** The context. */
  readonly ctx: Context;
  /** The loaded config. */
  readonly config: Config;
  /** The profile in use. */
  readonly profile: string;
  /** `--dry-run`: print the requests and send nothing. */
  readonly dryRun: boolean;
  /** `--as`, when given. */
  readonly as?: Identity;
  /** How to write the result. */
  readonly output: OutputOptions;
  /**
   * The service address of the profile (for previews).
   *
   * @throws {ValidationError} when an explicitly named profile does not exist
   */
  baseUrl(): string;
  /**
   * Resolves the token of `identity` (step 7, so a missing sign-in fails before any request is
   * built) and returns a client that calls the service with it.
   *
   * @throws {AuthError} when no usable token can be found
   */
  connect(identity: Identity): Promise<ApiCaller>;
  /**
   * Asks the person at the terminal to confirm; without a terminal, fails naming `flag`.
   *
   * @throws {ValidationError} naming `flag` when there is no terminal to ask at
   */
  confirm(question: string, flag: string): Promise<boolean>;
  /**
   * Asks the person at the terminal for a missing required value; absent where there is no
   * terminal (then every missing flag is reported at once).
   */
  readonly ask?: (question: string, flag: string) => Promise<string>;
}

/** A write request the service accepted (answered with success). */
export interface AcceptedWrite {
  /** `POST`, `PATCH`, `PUT` or `DELETE`. */
  method: string;
  /** The path. */
  path: string;
}

/**
 * The client a shortcut runs with, noting each write request the service accepts: what a
 * failure after it must not hide.
 *
 * @param client the session's client
 */
function trackWrites(client: ApiCaller): { client: ApiCaller; accepted: AcceptedWrite[] } {
  const accepted: AcceptedWrite[] = [];
  return {
    accepted,
    client: {
      async request<T>(request: ApiRequest): Promise<T> {
        const data = await client.request<T>(request);
        if (request.method !== "GET") {
          accepted.push({ method: request.method, path: request.path });
        }
        return data;
      },
      download: (request, target) => client.download(request, target),
    },
  };
}

/**
 * The error a failure is shown as. Anything but a {@link HarkError} is a bug, an internal error
 * (exit 5), unless the service had already accepted a write: the change happened, and a
 * script told "internal error" would run it again. It then is an `invalid_response` (exit 1)
 * that says the write was carried out; its retry carries the idempotency key.
 *
 * @param error what was thrown
 * @param accepted the writes the service accepted before it
 * @param definition the shortcut
 */
export function afterWrites(
  error: unknown,
  accepted: readonly AcceptedWrite[],
  definition: AnyShortcut,
): HarkError {
  if (error instanceof HarkError || accepted.length === 0) return toHarkError(error);
  const last = accepted[accepted.length - 1];
  const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new ApiError(
    `hark ${shortcutName(definition)} was carried out (the service accepted ${last.method} ` +
      `${last.path}), but hark cannot show the service's answer: ${reason}`,
    {
      type: "invalid_response",
      suggestion: definition.idempotencyKey === undefined
        ? "Check the result before running it again"
        : "Check the result, or run it again with the same idempotency key, which changes " +
          "nothing more",
      cause: error,
    },
  );
}

/** What the command line gave a shortcut (step 1). */
export interface ShortcutArgs {
  /** Flag values by parameter name; `undefined` when not given. */
  argv: Record<string, unknown>;
  /** `--input <path>` or `--input -`. */
  input?: string;
}

/**
 * Picks the identity (step 3): `--as`, else the shortcut's default.
 *
 * @param definition the shortcut
 * @param requested `--as`, when given
 * @throws {ValidationError} naming `--as` when the shortcut does not support it
 */
export function matchIdentity(definition: AnyShortcut, requested: Identity | undefined): Identity {
  const supported = identitiesOf(definition);
  const identity = requested ?? supported[0];
  if (!supported.includes(identity)) {
    throw new ValidationError(
      `hark ${shortcutName(definition)} cannot run as "${identity}": it supports ` +
        supported.map((s) => `"${s}"`).join(", "),
      { param: "--as", suggestion: `Use --as ${supported[0]}` },
    );
  }
  return identity;
}

/**
 * Runs steps 3 to 11 of a shortcut: match, bind, validate, stop with the preview on `--dry-run`
 * (before any token is looked for, so it works signed out), resolve the token, run (build
 * requests and call), classify failures, format the output.
 *
 * @param session what the command layer prepared
 * @param definition the shortcut
 * @param args the command-line values
 * @throws {HarkError} of the step that failed
 */
export async function runShortcut(
  session: ShortcutSession,
  definition: AnyShortcut,
  args: ShortcutArgs,
): Promise<void> {
  // At a terminal, the output goes through the pager once the command is done (`pager.ts`);
  // piped, there is none, and its module is not imported (the bundle may still carry its few
  // declarations in the start-up chunk, where scripts/merge_chunks.ts finds that cheaper).
  const paged = session.ctx.stdout.isTerminal
    ? (await import("../output/pager.ts")).openPager(session.ctx)
    : { ctx: session.ctx, flush: () => Promise.resolve() };
  try {
    await runSteps(session, paged.ctx, definition, args);
  } finally {
    await paged.flush();
  }
}

async function runSteps(
  session: ShortcutSession,
  ctx: Context,
  definition: AnyShortcut,
  args: ShortcutArgs,
): Promise<void> {
  const identity = matchIdentity(definition, session.as);
  const bound = await bindParams(
    ctx,
    definition.service,
    definition.params,
    { ...args, ask: session.ask },
  );
  const { values, sources } = bound;
  // A write with an idempotency key always sends one, known here for the retry advice.
  const keyParam = definition.idempotencyKey;
  if (keyParam !== undefined && values[keyParam] === undefined) {
    values[keyParam] = ctx.randomUUID();
  }
  // The same warning (a bad time on every row of a listing) is shown once.
  const warnings: string[] = [];
  const input: ShortcutInput = {
    ctx,
    values,
    identity,
    get timeZone() {
      return bound.timeZone;
    },
    config: session.config,
    profile: session.profile,
    confirm: (question, flag) => session.confirm(question, flag),
    warn: (message) => void (warnings.includes(message) || warnings.push(message)),
  };
  await definition.validate?.(input);
  if (session.dryRun) {
    const base = session.baseUrl();
    const previews = uniquePreviews(
      definition.requests(input).map((r) => previewRequest(base, r, identity)),
    );
    // Times typed in words, shown as the moments they came to (for people: stderr).
    for (const note of resolvedTimeNotes(values, bound.timeZone)) ctx.stderr.write(`${note}\n`);
    // A person at a terminal reads the change; --json (and a pipe) get the request list.
    ctx.stdout.write(
      ctx.stdout.isTerminal && session.output.format === undefined
        ? drawDryRun(definition.preview?.(input), previews)
        : formatJson(previews, ctx.stdout.isTerminal) + "\n",
    );
    return;
  }
  const writes = trackWrites(await session.connect(identity));
  const client = routedCaller(session, identity, writes.client);
  const columns = typeof definition.columns === "function"
    ? definition.columns(input)
    : definition.columns;
  // A drawing replaces the default table only: `--format table` asks for the table itself.
  const draw = ctx.stdout.isTerminal && session.output.format === undefined &&
      resolveFormat(ctx, session.output) === "table"
    ? definition.render?.(input)
    : undefined;
  try {
    if (definition.stream) {
      const out = draw
        ? collectedStream<Record<string, unknown>>((rows) => ctx.stdout.write(draw(rows)))
        : await openDataStream(ctx, session.output, columns);
      try {
        for await (const batch of definition.stream(input, client)) {
          out.write(batch);
          // The batch is written: what it took to fetch and shape it can go now.
          ctx.reclaim();
        }
      } catch (error) {
        // What was read stays usable (a closed JSON array, the table so far); the error follows.
        ctx.status(undefined);
        out.fail();
        throw error;
      }
      ctx.status(undefined);
      out.end();
    } else {
      if (!definition.run) {
        throw new Error(`${shortcutName(definition)} declares neither run nor stream`);
      }
      const result = await definition.run(input, client);
      const data = definition.output ? definition.output(result, input) : result;
      ctx.status(undefined);
      if (draw) ctx.stdout.write(draw(data));
      // A shortcut's output is whatever its hooks made (an object, a list, null): writeData
      // takes rows typed by the columns, and lays out anything else as it is.
      else await writeData(ctx, session.output, data as Record<string, unknown>, columns);
    }
  } catch (error) {
    ctx.status(undefined);
    // The warnings go with the error: before it in text, inside the envelope in JSON.
    throw withRetryAdvice(afterWrites(error, writes.accepted, definition), {
      definition,
      argv: args.argv,
      input: args.input,
      values,
      sources,
      as: session.as,
      profile: session.profile,
    }).withWarnings(warnings);
  }
  ctx.status(undefined);
  for (const warning of warnings) {
    ctx.stderr.write(`warning: ${terminalSafe(warning, { breaks: "space" })}\n`);
  }
}

/**
 * The caller a shortcut's hooks get: requests go with `identity`'s token, except those that name
 * another identity ({@link ApiRequest.identity}: an upload as the user goes with the tenant
 * token), whose token is resolved on first use, once per run. When that token cannot be had
 * (no app configured, say), the error's suggestion says which call needed it and why.
 *
 * @param session connects the other identity when first needed
 * @param identity the shortcut's identity
 * @param primary the caller of `identity`
 */
export function routedCaller(
  session: Pick<ShortcutSession, "connect">,
  identity: Identity,
  primary: ApiCaller,
): ApiCaller {
  const others = new Map<Identity, Promise<ApiCaller>>();
  const callerFor = (request: ApiRequest): Promise<ApiCaller> => {
    const wanted = request.identity ?? identity;
    if (wanted === identity) return Promise.resolve(primary);
    let other = others.get(wanted);
    if (!other) {
      other = session.connect(wanted).catch((error) => {
        if (!(error instanceof HarkError)) throw error;
        const whose = wanted === "bot" ? "the app's tenant token" : "a user token";
        throw error.withRecovery({
          ...error.recovery,
          suggestion: `${request.method} ${request.path} goes with ${whose}, the only token ` +
            `Lark takes for it, whatever --as says. ${error.recovery.suggestion}`,
        });
      });
      others.set(wanted, other);
    }
    return other;
  };
  return {
    request: async <T>(request: ApiRequest) => (await callerFor(request)).request<T>(request),
    download: async (request: ApiRequest, target: DownloadTarget) =>
      (await callerFor(request)).download(request, target),
  };
}
