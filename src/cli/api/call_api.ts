/**
 * `hark api <METHOD> <path>`: a raw call to any Open Platform endpoint, with the same auth,
 * retries, errors and output as the shortcuts. The request itself is built in `src/api_call/`,
 * which the MCP server's `api` tool shares.
 *
 * @module
 */

import { applyFields, type FieldFlag, readFields } from "../../api_call/api_fields.ts";
import { type ApiOptions, buildApiRequest } from "../../api_call/api_request.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import { shellQuote } from "../../errors/shell_quote.ts";
import { previewRequest } from "../../http/request.ts";
import { formatJson, writeData } from "../../output/output.ts";
import { openSession, type Session } from "../../session/session.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import { DEFAULT_MAX_PAGES } from "../../shortcuts/paging.ts";
import type { API_FLAGS } from "./api.ts";
import { fetchAllPages, pagingLine } from "./api_pages.ts";

/** What `hark api` takes beyond the request shared with the MCP `api` tool. */
export interface ApiCommandOptions extends ApiOptions {
  /** `-f` and `-F`, in that order. */
  fields?: FieldFlag[];
  /** `--page-all`: read every page. */
  pageAll?: boolean;
  /** `--max-pages`, as typed. */
  maxPages?: string;
}

/** `--max-pages`: a whole number of at least 1. */
function maxPagesOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_PAGES;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new ValidationError(
      `Invalid value ${JSON.stringify(text)} for --max-pages: expected a whole number of 1 or more`,
      { param: "--max-pages" },
    );
  }
  return value;
}

/**
 * Runs `hark api <METHOD> <path>`.
 *
 * @param call the parsed command line
 */
export async function runApiCommand(
  call: CommandCall<FlagValuesOf<typeof API_FLAGS>>,
): Promise<void> {
  const [method, path] = call.args;
  const { flags } = call;
  await runApi(await openSession(call.ctx, call.globals), {
    method,
    path,
    params: flags.params,
    data: flags.data,
    idempotencyKey: flags["idempotency-key"],
    scopes: flags.scope,
    fields: [
      ...(flags["raw-field"] ?? []).map((text): FieldFlag => ({ kind: "raw", text })),
      ...(flags.field ?? []).map((text): FieldFlag => ({ kind: "typed", text })),
    ],
    pageAll: flags["page-all"] === true,
    maxPages: flags["max-pages"],
  });
}

/**
 * A failed write that may have been applied, sent with `--idempotency-key`: the advice to send it
 * again with the same key (the body must carry the same key for the service to see it).
 *
 * @param error the failure
 * @param options the arguments
 */
export function apiRetryAdvice(error: HarkError, options: ApiCommandOptions): HarkError {
  if (!error.mayHaveApplied || options.idempotencyKey === undefined) return error;
  const words = ["hark", "api", options.method.toUpperCase(), shellQuote(options.path)];
  if (options.params !== undefined) words.push("--params", shellQuote(options.params));
  if (options.data !== undefined) words.push("--data", shellQuote(options.data));
  for (const field of options.fields ?? []) {
    words.push(field.kind === "raw" ? "-f" : "-F", shellQuote(field.text));
  }
  for (const scope of options.scopes ?? []) words.push("--scope", shellQuote(scope));
  words.push("--idempotency-key", shellQuote(options.idempotencyKey));
  const stdin = options.params === "-" || options.data === "-";
  return error.withRecovery({
    suggestion: "The request may have been applied before its answer was lost: check, or send " +
      "it again with the same idempotency key (and the same body)" +
      (stdin ? "; give it the same input on stdin again" : ""),
    command: words.join(" "),
  });
}

/**
 * Runs `hark api`: with `--dry-run` prints the request (Authorization masked) and sends nothing;
 * otherwise sends it as `--as` (default user) and writes the answer's `data` (with `--page-all`,
 * every page's items joined).
 *
 * @param session the command's session
 * @param options the arguments
 * @throws {ValidationError} for bad arguments
 * @throws {HarkError} the errors of `ApiClient.request`
 */
export async function runApi(session: Session, options: ApiCommandOptions): Promise<void> {
  const { ctx, globals } = session;
  const fields = await readFields(ctx, options.fields ?? []);
  const request = applyFields(await buildApiRequest(ctx, options), fields);
  const maxPages = maxPagesOf(options.maxPages);
  if (options.pageAll && !["GET", "POST"].includes(request.method)) {
    throw new ValidationError(
      `Cannot use --page-all with ${request.method}: only a listing has pages`,
      {
        param: "--page-all",
        suggestion: "Use --page-all with a GET (or a POST search) that answers with page_token",
      },
    );
  }
  if (globals.dryRun) {
    const preview = previewRequest(session.baseUrl(), request);
    ctx.stdout.write(formatJson(preview, ctx.stdout.isTerminal) + "\n");
    return;
  }
  let data: unknown;
  try {
    const client = session.client();
    data = options.pageAll
      ? await fetchAllPages((r) => client.request(r), request, {
        maxPages,
        onMaxPages: (pages) =>
          ctx.stderr.write(
            `warning: stopped after ${pages} pages (--max-pages); the listing has more\n`,
          ),
      })
      : await client.request(request);
  } catch (error) {
    throw error instanceof HarkError ? apiRetryAdvice(error, options) : error;
  }
  await writeAnswer(session, data);
}

/**
 * Writes an answer's data as `hark api` does: JSON unless a format is asked for (the raw answer
 * rarely fits a table), its list when a table or CSV is.
 *
 * @param session the command's session
 * @param data the answer's data
 */
export async function writeAnswer(session: Session, data: unknown): Promise<void> {
  const json = session.wantsJson();
  await writeData(session.ctx, answerOutput(session), json ? (data ?? {}) : tableData(data));
  // A table or CSV shows the list alone: the paging fields follow on stderr, kept in sight.
  const line = json ? undefined : pagingLine(data);
  if (line !== undefined) session.ctx.stderr.write(`${line}\n`);
}

/**
 * The output options of a raw answer: the format asked for (flags, then preferences), else JSON.
 *
 * @param session the command's session
 */
export function answerOutput(session: Session): Session["output"] {
  const format = session.output.format ?? session.output.preferences?.output_format ?? "json";
  return { ...session.output, format };
}

/**
 * What a table or CSV shows of an answer: the list when the data holds exactly one list (such as
 * `items` or `users`), else the data itself.
 *
 * @param data the answer's data
 */
export function tableData(data: unknown): unknown {
  if (data === undefined || data === null) return {};
  if (typeof data === "object" && !Array.isArray(data)) {
    const lists = Object.values(data).filter(Array.isArray);
    if (lists.length === 1) return lists[0];
  }
  return data;
}
