/**
 * The shortcut lifecycle, in the spec's order: 1 parse, 2 load config, 3 match, 4 bind,
 * 5 validate, 6 dry-run stop, 7 resolve token, 8 build request, 9 call, 10 classify, 11 format.
 * Steps 1 and 2 happen in {@link runShortcutCommand} (commander parses, the session loads the
 * config); {@link runShortcut} does the rest.
 *
 * @module
 */

import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import type { Identity } from "../cli/globals.ts";
import { openSession, serviceBaseUrl, type Session } from "../cli/session.ts";
import { toHarkError, ValidationError } from "../errors/mod.ts";
import { previewRequest } from "../http/preview_request.ts";
import { formatJson, writeData } from "../output/mod.ts";
import {
  type AnyShortcut,
  type ApiCaller,
  identitiesOf,
  type ShortcutInput,
  shortcutName,
} from "./definition.ts";
import { bindParams } from "./input_sources.ts";

/**
 * Resolves the token of `identity` (step 7) and returns a client that calls the service with it.
 *
 * @throws {AuthError} when no usable token can be found
 */
export type ClientFactory = (session: Session, identity: Identity) => Promise<ApiCaller>;

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
 * Runs steps 3 to 11 of a shortcut on an open session: match, bind, validate, stop with the
 * preview on `--dry-run` (before any token is looked for, so it works signed out), resolve the
 * token, run (build requests and call), classify failures, format the output.
 *
 * @param session the session (steps 1 and 2 done)
 * @param definition the shortcut
 * @param args the command-line values
 * @param createClient resolves the token and builds the client
 * @throws {HarkError} of the step that failed
 */
export async function runShortcut(
  session: Session,
  definition: AnyShortcut,
  args: ShortcutArgs,
  createClient: ClientFactory,
): Promise<void> {
  const { ctx } = session;
  const identity = matchIdentity(definition, session.globals.as);
  const { values } = await bindParams(ctx, definition.service, definition.params, args);
  const input: ShortcutInput = {
    ctx,
    values,
    identity,
    config: session.config,
    profile: session.profile,
  };
  definition.validate?.(input);
  if (session.globals.dryRun) {
    const base = serviceBaseUrl(session);
    const previews = definition.requests(input).map((r) => previewRequest(base, r));
    ctx.stdout.write(formatJson(previews, ctx.stdout.isTerminal) + "\n");
    return;
  }
  const client = await createClient(session, identity);
  let result: unknown;
  try {
    result = await definition.run(input, client);
  } catch (error) {
    throw toHarkError(error);
  }
  const data = definition.output ? definition.output(result) : result;
  writeData(ctx, session.output, data as Record<string, unknown>, definition.columns);
}

/**
 * The action of a shortcut command: reads the flags commander parsed (step 1), opens the session
 * (step 2: global flags, config, profile) and runs the rest.
 *
 * @param ctx the context
 * @param definition the shortcut
 * @param command the commander command being run
 * @param createClient resolves the token and builds the client
 */
export async function runShortcutCommand(
  ctx: Context,
  definition: AnyShortcut,
  command: CommandUnknownOpts,
  createClient: ClientFactory,
): Promise<void> {
  const opts = command.opts() as Record<string, unknown>;
  const argv: Record<string, unknown> = {};
  for (const option of command.options) {
    const name = option.long?.replace(/^--/, "");
    if (name && definition.params.some((p) => p.name === name)) {
      argv[name] = opts[option.attributeName()];
    }
  }
  const session = await openSession(ctx, command);
  await runShortcut(
    session,
    definition,
    { argv, input: opts.input as string | undefined },
    createClient,
  );
}
