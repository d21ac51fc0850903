/**
 * What a tool call answers: the command's JSON output as structured content with a short text
 * summary, or a tool error (`isError: true`) carrying the error envelope.
 *
 * @module
 */

import { type ErrorEnvelope, type HarkError, singleLine, toEnvelope } from "../errors/mod.ts";
import { isObject, stringField } from "../json/fields.ts";
import { cutPage, type ListingPage, type PageRequest } from "./result_page.ts";

/** A text block of a result. */
export interface TextContent {
  /** Always `text`. */
  type: "text";
  /** The text. */
  text: string;
}

/** The answer to `tools/call`. */
export interface ToolResult {
  /** A short summary (the data itself is in `structuredContent`, once). */
  content: TextContent[];
  /** The data as an object: the output itself, or `{items}` for a list. */
  structuredContent?: Record<string, unknown>;
  /** Set on a tool error. */
  isError?: boolean;
  /** Index signature of the SDK's result type. */
  [key: string]: unknown;
}

/** What a successful call produced. */
export interface ToolOutput {
  /** `hark calendar +agenda`, for the summary. */
  command: string;
  /** The JSON output (for a dry run, the previews of the requests). */
  data: unknown;
  /** Whether it was a dry run. */
  dryRun: boolean;
  /** Warnings the command printed. */
  warnings: string[];
}

/** How many requests or fields a summary names at most. */
const SUMMARY_ITEMS = 3;

/**
 * The result of a successful call: the data once, as structured content, and a short text
 * summary beside it (with the page token of a listing that continues). The MCP specification
 * says a tool with structured content SHOULD also send it serialized as text, for clients that
 * read no structured content; hark does not, on purpose: every tool declares an `outputSchema`,
 * so a client that lists it reads structured content, and a second copy doubled what a result
 * costs an agent's context (a year's agenda was 918 KB twice).
 *
 * @param output the command, its data and warnings
 * @param page for a listing tool, the page to cut from its rows
 */
export function successResult(output: ToolOutput, page?: PageRequest): ToolResult {
  const listing = page !== undefined && !output.dryRun && Array.isArray(output.data)
    ? cutPage(output.data, page)
    : undefined;
  const structured = output.dryRun
    ? { dry_run: true, requests: output.data }
    : listing !== undefined
    ? { ...listing }
    : structuredOf(output.data);
  // One line each: a warning or an id quoting the service's text cannot add a line of its own.
  const lines = [
    singleLine(listing ? pageSummary(output.command, listing, page) : summaryOf(output)),
  ];
  for (const warning of output.warnings) lines.push(`Warning: ${singleLine(warning)}`);
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

function pageSummary(command: string, listing: ListingPage, page?: PageRequest): string {
  const from = (page?.offset ?? 0) + 1;
  const rows = listing.items.length === 0
    ? "no results"
    : `${plural(listing.items.length, "result")} (rows ${from} to ${
      from + listing.items.length - 1
    })`;
  return `${command}: ${rows} in structuredContent.items.` +
    (listing.page_token === undefined
      ? " That is all."
      : ` More follow: call again with the same arguments and page_token "${listing.page_token}".`);
}

/** How a tool error is worded for the tool's caller. */
export interface ErrorWording {
  /** The recovery command when the error names none. */
  helpCommand: string;
  /** Applied to the message and the suggestion (flags to argument names); default none. */
  rewrite?: (text: string) => string;
  /** A sentence added to the suggestion. */
  advice?: string;
}

/**
 * The tool error of a failed call: the envelope as structured content and as readable text,
 * one line per field (the envelope's fields are single lines, see {@link toEnvelope}).
 *
 * @param error the error
 * @param wording the fallback command, a rewrite of flags, extra advice
 */
export function errorResult(error: HarkError, wording: ErrorWording): ToolResult {
  const rewrite = wording.rewrite ?? ((text: string) => text);
  const envelope: ErrorEnvelope = toEnvelope(error, wording.helpCommand);
  envelope.error.message = rewrite(envelope.error.message);
  let suggestion = rewrite(envelope.error.recovery.suggestion);
  if (wording.advice) suggestion = `${suggestion.replace(/\.?$/, ".")} ${wording.advice}`;
  envelope.error.recovery.suggestion = suggestion;
  const { type, message, recovery, request_id: requestId } = envelope.error;
  const lines = [`Error (${type}): ${message}`];
  if (recovery.suggestion) lines.push(`What to do: ${recovery.suggestion}`);
  if (recovery.command) lines.push(`Command: ${recovery.command}`);
  if (requestId) lines.push(`Log id (for Lark support): ${requestId}`);
  return {
    content: [{ type: "text", text: lines.join("\n") }],
    structuredContent: { ...envelope },
    isError: true,
  };
}

function structuredOf(data: unknown): Record<string, unknown> {
  if (Array.isArray(data)) return { items: data };
  if (isObject(data)) return data;
  return { result: data ?? null };
}

function summaryOf(output: ToolOutput): string {
  const { command, data } = output;
  if (output.dryRun) {
    // A dry run's data is its requests' previews (`RequestPreview`), as JSON output.
    const previews: unknown[] = Array.isArray(data) ? data : [];
    const shown = previews.slice(0, SUMMARY_ITEMS)
      .map((p) => `${stringField(p, "method")} ${stringField(p, "url")}`);
    const more = previews.length > SUMMARY_ITEMS
      ? ` and ${previews.length - SUMMARY_ITEMS} more`
      : "";
    return `Dry run of ${command}: nothing was sent. It would send ${
      plural(previews.length, "request")
    }` +
      (shown.length > 0 ? `: ${shown.join("; ")}${more}` : "") + ".";
  }
  if (Array.isArray(data)) return `${command}: ${plural(data.length, "result")}.`;
  if (isObject(data)) {
    const ids = Object.entries(data)
      .filter(([key, value]) =>
        /(^|_)id$/.test(key) && (typeof value === "string" || typeof value === "number")
      )
      .slice(0, SUMMARY_ITEMS)
      .map(([key, value]) => `${key} ${value}`);
    return `${command}: done${ids.length > 0 ? ` (${ids.join(", ")})` : ""}.`;
  }
  return `${command}: done.`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
