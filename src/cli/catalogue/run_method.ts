/**
 * Running an API method's command: pick the identity, read and check every value, build the
 * request (no network so far: every mistake is exit 2 before anything is sent), then preview it
 * (`--dry-run`) or send it with the session's client (auth, retries, errors), and write the
 * answer as `hark api` does, or every page of it with `--page-all`.
 *
 * @module
 */

import type { Identity } from "../../auth/identity.ts";
import type { CatalogueMethod } from "../../catalogue/format.ts";
import type { MethodFlag } from "../../catalogue/method_flags.ts";
import { commandInput, commandLabel } from "../../catalogue/method_input.ts";
import { buildMethodRequest } from "../../catalogue/method_request.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import { shellQuote } from "../../errors/shell_quote.ts";
import { type ApiRequest, previewRequest } from "../../http/request.ts";
import { booleanField, isObject, stringField } from "../../json/fields.ts";
import { formatJson, openDataStream } from "../../output/output.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";
import { openSession, type Session } from "../../session/session.ts";
import { DEFAULT_MAX_PAGES, followPages, type Page } from "../../shortcuts/paging.ts";
import { answerOutput, writeAnswer } from "../api/call_api.ts";
import type { CommandCall } from "../command_spec.ts";
import { suggest } from "../suggest.ts";

/**
 * The identity a method runs as: `--as`, else the first it supports (the user when it can).
 *
 * @param method the method
 * @param requested `--as`, when given
 * @throws {ValidationError} naming `--as` when the method does not support it
 */
export function methodIdentity(method: CatalogueMethod, requested: Identity | undefined): Identity {
  const identity = requested ?? method.identities[0];
  if (!method.identities.includes(identity)) {
    throw new ValidationError(
      `hark ${method.command.join(" ")} cannot run as "${identity}": ${method.id} accepts ` +
        `${method.identities.map((i) => `"${i}"`).join(", ")} only`,
      { param: "--as", suggestion: `Use --as ${method.identities[0]}` },
    );
  }
  return identity;
}

/** `--max-pages` as a number of at least 1. */
function maxPagesOf(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_PAGES;
  const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new ValidationError(
      `Invalid value ${
        JSON.stringify(value)
      } for --max-pages: expected a whole number of at least 1`,
      { param: "--max-pages" },
    );
  }
  return n;
}

/** A flag value as text, when the parser bound one. */
function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * Runs `hark <service> <resource> <method>`.
 *
 * @param call the parsed command line
 * @param method the method
 * @param flags its field flags
 * @throws {ValidationError} before anything is sent: an identity it does not support, a bad
 *   value, an unknown or missing field
 * @throws {HarkError} the errors of the API client
 */
export async function runMethod(
  call: CommandCall,
  method: CatalogueMethod,
  flags: readonly MethodFlag[],
): Promise<void> {
  const { ctx, globals } = call;
  const identity = methodIdentity(method, globals.as);
  const pageAll = call.flags["page-all"] === true;
  const maxPages = maxPagesOf(call.flags["max-pages"]);
  const input = await commandInput(ctx, flags, {
    flags: call.flags,
    params: text(call.flags.params),
    data: text(call.flags.data),
  });
  const request = buildMethodRequest(method, input, {
    label: commandLabel(flags),
    suggest: (word, candidates) => suggest(word, candidates),
  });
  const session = await openSession(ctx, globals);
  if (globals.dryRun) {
    ctx.stdout.write(
      formatJson(previewRequest(session.baseUrl(), request), ctx.stdout.isTerminal) + "\n",
    );
    return;
  }
  const client = session.client(identity);
  try {
    if (pageAll) await writePages(session, method, request, maxPages, identity);
    else await writeAnswer(session, await client.request(request));
  } catch (error) {
    throw error instanceof HarkError ? retryAdvice(error, call, request) : error;
  }
}

/** The list of a page's data: `items`, else its only list, else the data itself. */
function pageItems(data: unknown): readonly unknown[] {
  if (!isObject(data)) return data === undefined || data === null ? [] : [data];
  if (Array.isArray(data.items)) return data.items;
  const lists = Object.values(data).filter((value) => Array.isArray(value));
  const [only] = lists;
  return lists.length === 1 && Array.isArray(only) ? only : [data];
}

/** The request of the page after `token`: the token in the query or the body. */
function pageRequest(method: CatalogueMethod, request: ApiRequest, token: string): ApiRequest {
  if (method.paging === "body") {
    return {
      ...request,
      body: { ...(isObject(request.body) ? request.body : {}), page_token: token },
    };
  }
  return { ...request, query: { ...request.query, page_token: token } };
}

/** `--page-all`: every page's items, written as they come. */
async function writePages(
  session: Session,
  method: CatalogueMethod,
  request: ApiRequest,
  maxPages: number,
  identity: Identity,
): Promise<void> {
  const { ctx } = session;
  const client = session.client(identity);
  const warnings: string[] = [];
  const out = await openDataStream<unknown>(ctx, answerOutput(session));
  const fetchPage = async (token: string | undefined): Promise<Page<unknown>> => {
    const data = await client.request(
      token === undefined ? request : pageRequest(method, request, token),
    );
    return {
      items: pageItems(data),
      hasMore: booleanField(data, "has_more") === true,
      pageToken: stringField(data, "page_token"),
    };
  };
  try {
    for await (
      const items of followPages(fetchPage, {
        maxPages,
        onPage: (pages, count) => ctx.status(`${count} items read (${pages} pages)`),
        onMaxPages: (pages) =>
          warnings.push(`Stopped after ${pages} pages (--max-pages); the service has more`),
      })
    ) out.write(items);
  } catch (error) {
    ctx.status(undefined);
    out.fail();
    throw error;
  }
  ctx.status(undefined);
  out.end();
  for (const warning of warnings) ctx.stderr.write(`warning: ${terminalSafe(warning)}\n`);
}

/**
 * A failed write that may have been applied, sent with its idempotency key: the advice to send
 * the same command again (the service applies one key at most once).
 */
function retryAdvice(error: HarkError, call: CommandCall, request: ApiRequest): HarkError {
  if (!error.mayHaveApplied || request.idempotencyKey === undefined) return error;
  const words = ["hark", ...call.path];
  for (const [name, value] of Object.entries(call.flags)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === true) words.push(`--${name}`);
      else if (typeof item === "string") words.push(`--${name}`, shellQuote(item));
    }
  }
  if (call.globals.profile !== undefined) words.push("--profile", shellQuote(call.globals.profile));
  if (call.globals.as !== undefined) words.push("--as", call.globals.as);
  const stdin = call.flags.params === "-" || call.flags.data === "-";
  return error.withRecovery({
    suggestion: "The request may have been applied before its answer was lost: check, or send " +
      "it again with the same idempotency key" +
      (stdin ? "; give it the same input on stdin again" : ""),
    command: words.join(" "),
  });
}
