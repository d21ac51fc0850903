/**
 * The one formatting layer: data goes to stdout as JSON, a table or CSV. JSON and NDJSON are
 * written here; tables, cards and CSV by `drawn_output.ts`, loaded only for those formats: it
 * brings the text-width library, whose Unicode property patterns cost about 2.5 ms to build
 * (6.7 M of `contact +me --json`'s 143 M instructions, measured), and a JSON result never
 * measures text.
 *
 * @module
 */

import type { Context } from "../context.ts";
import type { OutputFormat, Preferences } from "../config/config.ts";
import { isObject } from "../json/fields.ts";
import { FieldProjection } from "./fields.ts";
import type { ColumnKind } from "./table.ts";

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
 * `ndjson` when piped: one record per line, so `grep`, `wc -l` and `head` count records, and
 * each line is still JSON (`--json` gives one JSON document).
 *
 * @param ctx the context
 * @param options the flag and preferences
 */
export function resolveFormat(ctx: Context, options: OutputOptions): OutputFormat {
  return options.format ?? options.preferences?.output_format ??
    (ctx.stdout.isTerminal ? "table" : "ndjson");
}

/**
 * Writes `data` to stdout in the resolved format. A list renders one row per item; a single
 * object as a table renders as a key: value card (the columns' headers, or its own keys, as
 * labels), and as NDJSON or CSV as one record.
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
export async function writeData<T>(
  ctx: Context,
  options: OutputOptions,
  data: T | T[],
  columns?: Column<T>[],
): Promise<void> {
  if (options.fields === undefined) await writeFormatted(ctx, options, data, columns);
  else {
    const records = projected(options.fields, data, columns);
    await writeFormatted(ctx, options, records, fieldColumns(options.fields));
  }
}

/**
 * {@link writeData} for a caller that cannot wait, when the format is known to be JSON or NDJSON
 * (the session's `wantsJson()`).
 *
 * @throws {Error} when the resolved format is a table or CSV (a mistake of the caller's)
 */
export function writeJsonData<T>(ctx: Context, options: OutputOptions, data: T | T[]): void {
  const format = resolveFormat(ctx, options);
  if (format !== "json" && format !== "ndjson") {
    throw new Error(`writeJsonData() asked to write ${format}`);
  }
  writeJson(ctx, format, options.fields === undefined ? data : projected(options.fields, data));
}

async function writeFormatted<T>(
  ctx: Context,
  options: OutputOptions,
  data: T | T[],
  columns?: Column<T>[],
): Promise<void> {
  const format = resolveFormat(ctx, options);
  if (format === "json" || format === "ndjson") writeJson(ctx, format, data);
  else (await drawnOutput()).writeTable(ctx, options, format, data, columns);
}

function writeJson(ctx: Context, format: "json" | "ndjson", data: unknown): void {
  if (format === "json") {
    ctx.stdout.write(formatJson(data, ctx.stdout.isTerminal) + "\n");
    return;
  }
  for (const item of Array.isArray(data) ? data : [data]) {
    ctx.stdout.write(formatJson(item, false) + "\n");
  }
}

/** `data` (a list, or one record) cut down to `fields`. */
function projected<T>(fields: readonly string[], data: T | T[], columns?: Column<T>[]): unknown {
  const projection = new FieldProjection(fields, declaredFields(columns));
  const records = Array.isArray(data) ? projection.project(data) : projection.project([data]);
  return Array.isArray(data) ? records : records[0];
}

/** The fields a command's columns read by name (those computed by a function name none). */
function declaredFields<T>(columns: Column<T>[] | undefined): string[] {
  return (columns ?? []).flatMap((c) => typeof c.value === "string" ? [c.value] : []);
}

/** The table and CSV columns of `--fields`: one per field, headed by its name. */
function fieldColumns(fields: readonly string[]): Column<unknown>[] {
  return fields.map((name) => ({ header: name.toUpperCase(), value: name }));
}

/** The table, card and CSV writers ({@link drawnOutput}'s module), once loaded. */
let drawn: Promise<typeof import("./drawn_output.ts")> | undefined;

/** Loads the table, card and CSV writers, with the text-width library (see the module note). */
function drawnOutput(): Promise<typeof import("./drawn_output.ts")> {
  return drawn ??= import("./drawn_output.ts");
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
export async function openDataStream<T>(
  ctx: Context,
  options: OutputOptions,
  columns?: Column<T>[],
): Promise<DataStream<T>> {
  if (options.fields === undefined) return await openFormattedStream(ctx, options, columns);
  const projection = new FieldProjection(options.fields, declaredFields(columns));
  const inner = await openFormattedStream<unknown>(ctx, options, fieldColumns(options.fields));
  return {
    write: (items) => inner.write(projection.project(items)),
    end: () => inner.end(),
    fail: () => inner.fail(),
  };
}

async function openFormattedStream<T>(
  ctx: Context,
  options: OutputOptions,
  columns?: Column<T>[],
): Promise<DataStream<T>> {
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
  return (await drawnOutput()).openDrawnStream(ctx, options, format, columns);
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
