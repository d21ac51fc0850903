/**
 * The one formatting layer: data goes to stdout as JSON, a table or CSV.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { OutputFormat, Preferences } from "../config/config.ts";
import { isObject } from "../json/fields.ts";
import { colorEnabled, paint } from "./color.ts";
import { renderCsv } from "./csv.ts";
import { FieldProjection } from "./fields.ts";
import { type ColumnKind, renderTable, type TableColumn } from "./table.ts";

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
  /**
   * `--fields`: each record is cut down to these fields, which are also the table and CSV
   * columns; default every field, the command's columns.
   */
  fields?: readonly string[];
}

/** A table or CSV column. */
export interface Column<T = Record<string, unknown>> {
  /** The header. */
  header: string;
  /** The field read from each row, or a function computing the cell. */
  value: string | ((row: T) => unknown);
  /**
   * What the column holds: `"id"` and `"time"` are never cut to fit a terminal, `"text"` (the
   * default) is cut with `…`.
   */
  kind?: ColumnKind;
  /**
   * How useful the column is in a table too narrow for all: the lowest are hidden first, and a
   * footer on stderr says so. Default 0; among equal priorities the rightmost goes first.
   */
  priority?: number;
  /**
   * The narrowest a `"text"` column is cut to before less useful columns are hidden (default
   * 10): the main text of a listing (a message) is worth more than 10 characters.
   */
  minWidth?: number;
}

/** The width assumed for a terminal that reports none (or 0) and no sane `COLUMNS`. */
export const DEFAULT_TERMINAL_WIDTH = 80;

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
 * On a terminal a table fits its width ({@link terminalWidth}): the least useful columns are
 * hidden (a footer on stderr names them), then free text is cut. Piped, a table is never cut.
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
  if (options.fields !== undefined) {
    const projection = new FieldProjection(options.fields, declaredFields(columns));
    const projected = Array.isArray(data) ? projection.project(data) : projection.project([data]);
    const records = Array.isArray(data) ? projected : projected[0];
    writeFormatted(ctx, options, records, fieldColumns(options.fields));
    return;
  }
  writeFormatted(ctx, options, data, columns);
}

/** The fields a command's columns read by name (those computed by a function name none). */
function declaredFields<T>(columns: Column<T>[] | undefined): string[] {
  return (columns ?? []).flatMap((c) => typeof c.value === "string" ? [c.value] : []);
}

/** The table and CSV columns of `--fields`: one per field, headed by its name. */
function fieldColumns(fields: readonly string[]): Column<unknown>[] {
  return fields.map((name) => ({ header: name.toUpperCase(), value: name }));
}

function writeFormatted<T>(
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
  if (format === "ndjson") {
    for (const item of Array.isArray(data) ? data : [data]) {
      ctx.stdout.write(formatJson(item, false) + "\n");
    }
    return;
  }
  writeTable(ctx, options, format, data, columns);
}

function writeTable<T>(
  ctx: Context,
  options: OutputOptions,
  format: "table" | "csv",
  data: T | T[],
  columns?: Column<T>[],
): void {
  const { specs, rows } = tabulate(data, columns);
  if (format === "table" && rows.length === 0 && ctx.stdout.isTerminal) {
    // A header over nothing tells a person less than a word does; a pipe still gets the header.
    ctx.stderr.write(`${NO_RESULTS}\n`);
    return;
  }
  if (format === "csv") {
    ctx.stdout.write(renderCsv(specs.map((c) => c.header), rows, { raw: options.csvRaw }));
    return;
  }
  const colors = paint(
    colorEnabled(ctx, ctx.stdout, { color: options.color, preference: options.preferences?.color }),
  );
  const maxWidth = ctx.stdout.isTerminal ? terminalWidth(ctx) : undefined;
  const table = renderTable(specs, rows, { maxWidth, header: colors.bold });
  ctx.stdout.write(table.text);
  if (table.hidden.length > 0) ctx.stderr.write(hiddenFooter(table.hidden, maxWidth) + "\n");
}

/** What an empty table on a terminal shows instead, on stderr. */
export const NO_RESULTS = "No results";

/** A listing written as it arrives. */
export interface DataStream<T> {
  /** Writes the next items, in order. */
  write(items: readonly T[]): void;
  /** Ends the listing (closes the JSON array; renders a table). */
  end(): void;
  /**
   * Ends a listing that stopped part-way (its source failed): what was written is made whole
   * (the JSON array closed, a table rendered from the items so far), so stdout holds valid data
   * for the items read; nothing is written when no item was. The caller reports the failure.
   */
  fail(): void;
}

/**
 * Writes a listing batch by batch, so memory does not grow with its length: JSON streams one
 * array (byte for byte what {@link writeData} writes for the whole list), NDJSON one line per
 * item, CSV its rows after one header. A table must measure every cell first, so it collects
 * the items and renders them at the end (tables are for terminals, not for a year of data).
 *
 * @param ctx the context
 * @param options format, colour, preferences and `csvRaw`
 * @param columns the table and CSV columns; default every key of the first item
 */
export function openDataStream<T>(
  ctx: Context,
  options: OutputOptions,
  columns?: Column<T>[],
): DataStream<T> {
  if (options.fields === undefined) return openFormattedStream(ctx, options, columns);
  const projection = new FieldProjection(options.fields, declaredFields(columns));
  const inner = openFormattedStream<unknown>(ctx, options, fieldColumns(options.fields));
  return {
    write: (items) => inner.write(projection.project(items)),
    end: () => inner.end(),
    fail: () => inner.fail(),
  };
}

function openFormattedStream<T>(
  ctx: Context,
  options: OutputOptions,
  columns?: Column<T>[],
): DataStream<T> {
  const format = resolveFormat(ctx, options);
  const pretty = ctx.stdout.isTerminal;
  let count = 0;
  if (format === "json" || format === "ndjson") {
    const close = () => ctx.stdout.write(count === 0 ? "[]\n" : pretty ? "\n]\n" : "]\n");
    return {
      write(items) {
        for (const item of items) {
          if (format === "ndjson") ctx.stdout.write(formatJson(item, false) + "\n");
          else if (pretty) {
            const text = formatJson(item, true).replaceAll("\n", "\n  ");
            ctx.stdout.write(`${count === 0 ? "[\n" : ",\n"}  ${text}`);
          } else ctx.stdout.write(`${count === 0 ? "[" : ","}${formatJson(item, false)}`);
          count++;
        }
      },
      end() {
        if (format === "json") close();
      },
      fail() {
        // NDJSON lines are whole already; an array is closed only once it was opened.
        if (format === "json" && count > 0) close();
      },
    };
  }
  if (format === "csv" && columns) {
    return {
      write(items) {
        const { specs, rows } = tabulate([...items], columns);
        const text = renderCsv(specs.map((c) => c.header), rows, { raw: options.csvRaw });
        // The header is the first line of every rendering: keep only the first one.
        ctx.stdout.write(count === 0 ? text : text.slice(text.indexOf("\r\n") + 2));
        count += items.length;
      },
      end() {
        if (count === 0) writeTable<T>(ctx, options, "csv", [], columns);
      },
      // CSV rows are whole lines already.
      fail() {},
    };
  }
  return collectedStream((all) =>
    writeTable(ctx, options, format === "csv" ? "csv" : "table", all, columns)
  );
}

/**
 * A listing that can only be written whole (a table, a drawing): it collects the items and hands
 * them to `render` at the end, or, when the listing failed part-way, the items read so far (if
 * any).
 *
 * @param render writes every item collected
 */
export function collectedStream<T>(render: (items: T[]) => void): DataStream<T> {
  const all: T[] = [];
  return {
    write: (items) => void all.push(...items),
    end: () => render(all),
    fail() {
      if (all.length > 0) render(all);
    },
  };
}

/**
 * The width a table on stdout fits: the terminal's, or, when it reports none or 0 (some ptys
 * report 0×0), `COLUMNS` when it is a whole number from 10 to 10 000, else 80.
 *
 * @param ctx the context
 * @returns the width in columns
 */
export function terminalWidth(ctx: Pick<Context, "env" | "stdout">): number {
  const reported = ctx.stdout.columns;
  if (reported !== undefined && reported > 0) return reported;
  const columns = ctx.env.get("COLUMNS")?.trim() ?? "";
  const fromEnv = /^\d{2,5}$/.test(columns) ? Number(columns) : NaN;
  return fromEnv >= 10 && fromEnv <= 10_000 ? fromEnv : DEFAULT_TERMINAL_WIDTH;
}

/** The note that columns were hidden: with their names when that fits on one line. */
function hiddenFooter(hidden: string[], width = Infinity): string {
  const count = hidden.length === 1 ? "1 column" : `${hidden.length} columns`;
  const named = `${count} hidden (${hidden.join(", ")}); --format json for all`;
  return named.length <= width ? named : `${count} hidden; --format json for all`;
}

/**
 * Characters JSON.stringify leaves raw that can drive or deceive a terminal: DEL, the C1 controls
 * (U+009B is an 8-bit CSI), bidi controls and other invisible format characters, and the line and
 * paragraph separators.
 */
const JSON_UNSAFE =
  /[\x7f-\x9f\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * JSON text with the characters of {@link JSON_UNSAFE} written as `\uXXXX` escapes: the same JSON
 * value (they only occur inside strings), safe to write to a terminal. `JSON.stringify` escapes
 * the C0 controls itself.
 *
 * @param json JSON text
 * @example
 * ```ts
 * escapeJsonText(JSON.stringify("a\u202eb")); // '"a\\u202eb"'
 * ```
 */
export function escapeJsonText(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * JSON with keys in a stable (sorted) order; pretty with two spaces, or compact. C1 controls,
 * bidi and other invisible format characters are written as `\uXXXX` ({@link escapeJsonText}):
 * the value is exact for machines, and a terminal shows the escape instead of obeying it.
 *
 * @param data the value
 * @param pretty whether to indent
 */
export function formatJson(data: unknown, pretty: boolean): string {
  return escapeJsonText(JSON.stringify(sortKeys(data), null, pretty ? 2 : undefined) ?? "null");
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isObject(value)) {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  }
  return value;
}

function tabulate<T>(
  data: T | T[],
  columns: Column<T>[] | undefined,
): { specs: TableColumn[]; rows: string[][] } {
  if (!Array.isArray(data)) {
    if (columns) return tabulate([data], columns);
    const entries = Object.entries(data ?? {});
    return {
      specs: [{ header: "FIELD", kind: "id" }, { header: "VALUE" }],
      rows: entries.map(([k, v]) => [k, cell(v)]),
    };
  }
  const cols: Column<T>[] = columns ??
    Object.keys(data[0] ?? {}).map((key) => ({
      header: key.toUpperCase(),
      value: key,
    }));
  return {
    specs: cols.map(({ header, kind, priority, minWidth }) => ({
      header,
      kind,
      priority,
      minWidth,
    })),
    rows: data.map((row) =>
      cols.map((c) => cell(typeof c.value === "function" ? c.value(row) : fieldOf(row, c.value)))
    ),
  };
}

/** The field `key` of a row; nothing for a row that is not an object. */
function fieldOf(row: unknown, key: string): unknown {
  return typeof row === "object" && row !== null ? Reflect.get(row, key) : undefined;
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== "object")) return value.join(", ");
  return JSON.stringify(value);
}
