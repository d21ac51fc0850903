/**
 * The one formatting layer: data goes to stdout as JSON, a table or CSV.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { OutputFormat, Preferences } from "../config/config.ts";
import { colorEnabled, paint } from "./color.ts";
import { renderCsv } from "./csv.ts";
import { renderTable } from "./table.ts";

/** What decides how data is written. */
export interface OutputOptions {
  /** The format asked for by `--json` or `--format`. */
  format?: OutputFormat;
  /** False when `--no-color` was given. */
  color: boolean;
  /** The config's preferences. */
  preferences?: Preferences;
  /**
   * Leave CSV cells that a spreadsheet would run as a formula as they are (`--csv-raw`);
   * default false: they are prefixed with `'`.
   */
  csvRaw?: boolean;
}

/** A table or CSV column. */
export interface Column<T = Record<string, unknown>> {
  /** The header. */
  header: string;
  /** The field read from each row, or a function computing the cell. */
  value: string | ((row: T) => unknown);
}

/**
 * The format to use: the flag, then `preferences.output_format`, then `table` on a terminal and
 * `json` when piped.
 *
 * @param ctx the context
 * @param options the flag and preferences
 */
export function resolveFormat(ctx: Context, options: OutputOptions): OutputFormat {
  return options.format ?? options.preferences?.output_format ??
    (ctx.stdout.isTerminal ? "table" : "json");
}

/**
 * Writes `data` to stdout in the resolved format. A list renders one row per item; a single
 * object renders as FIELD / VALUE rows when no columns are given.
 *
 * Table and CSV cells are made safe for a terminal; JSON stays exact.
 *
 * @param ctx the context
 * @param options format, colour, preferences and `csvRaw`
 * @param data the data
 * @param columns the table and CSV columns; default every key of the first item
 */
export function writeData<T>(
  ctx: Context,
  options: OutputOptions,
  data: T | T[],
  columns?: Column<T>[],
): void {
  const format = resolveFormat(ctx, options);
  if (format === "json") {
    ctx.stdout.write(formatJson(data, ctx.stdout.isTerminal) + "\n");
    return;
  }
  const { headers, rows } = tabulate(data, columns);
  if (format === "csv") {
    ctx.stdout.write(renderCsv(headers, rows, { raw: options.csvRaw }));
    return;
  }
  const colors = paint(
    colorEnabled(ctx, ctx.stdout, { color: options.color, preference: options.preferences?.color }),
  );
  ctx.stdout.write(
    renderTable(headers, rows, {
      maxWidth: ctx.stdout.isTerminal ? ctx.stdout.columns : undefined,
      header: colors.bold,
    }),
  );
}

/**
 * JSON with keys in a stable (sorted) order; pretty with two spaces, or compact.
 *
 * @param data the value
 * @param pretty whether to indent
 */
export function formatJson(data: unknown, pretty: boolean): string {
  return JSON.stringify(sortKeys(data), null, pretty ? 2 : undefined) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function tabulate<T>(
  data: T | T[],
  columns: Column<T>[] | undefined,
): { headers: string[]; rows: string[][] } {
  if (!Array.isArray(data)) {
    if (columns) return tabulate([data], columns);
    const entries = Object.entries((data ?? {}) as Record<string, unknown>);
    return { headers: ["FIELD", "VALUE"], rows: entries.map(([k, v]) => [k, cell(v)]) };
  }
  const cols = columns ??
    Object.keys((data[0] ?? {}) as Record<string, unknown>).map((key) => ({
      header: key.toUpperCase(),
      value: key,
    }));
  return {
    headers: cols.map((c) => c.header),
    rows: data.map((row) =>
      cols.map((c) =>
        cell(
          typeof c.value === "function" ? c.value(row) : (row as Record<string, unknown>)[c.value],
        )
      )
    ),
  };
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== "object")) return value.join(", ");
  return JSON.stringify(value);
}
