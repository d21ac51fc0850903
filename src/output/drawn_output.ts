/**
 * The formats drawn for a person or a spreadsheet: tables, key: value cards and CSV. Loaded by
 * `output.ts` only when the format is one of these (see its module note: this module brings the
 * text-width library).
 *
 * @module
 */

import type { Context } from "../context.ts";
import { type CardField, renderCard } from "./card.ts";
import { colorEnabled, paint } from "./color.ts";
import { renderCsv } from "./csv.ts";
import {
  collectedStream,
  type Column,
  type DataStream,
  NO_RESULTS,
  type OutputOptions,
  terminalWidth,
} from "./output.ts";
import { renderTable, type TableColumn } from "./table.ts";

/**
 * A listing in a drawn format: CSV rows as they arrive (after one header); a table collects the
 * items and renders them at the end, since it must measure every cell first.
 *
 * @param ctx the context
 * @param options format, colour, preferences and `csvRaw`
 * @param format the resolved format
 * @param columns the table and CSV columns; default every key of the first item
 */
export function openDrawnStream<T>(
  ctx: Context,
  options: OutputOptions,
  format: "table" | "csv",
  columns?: Column<T>[],
): DataStream<T> {
  if (format === "csv" && columns) {
    let count = 0;
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
  return collectedStream((all) => writeTable(ctx, options, format, all, columns));
}

/** Writes `data` as a table (a card for one object) or CSV; see `writeData` in `output.ts`. */
export function writeTable<T>(
  ctx: Context,
  options: OutputOptions,
  format: "table" | "csv",
  data: T | T[],
  columns?: Column<T>[],
): void {
  if (format === "table" && !Array.isArray(data)) {
    writeCard(ctx, options, data, columns);
    return;
  }
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

/**
 * One record as a key: value card ({@link renderCard}): every column of the declaration (or
 * every field), wrapped to the terminal's width, nothing cut or hidden.
 */
function writeCard<T>(ctx: Context, options: OutputOptions, data: T, columns?: Column<T>[]): void {
  const fields: CardField[] = columns
    ? columns.map((c) => ({
      label: c.header,
      kind: c.kind,
      value: cell(typeof c.value === "function" ? c.value(data) : fieldOf(data, c.value)),
    }))
    : Object.entries(data ?? {}).map(([key, value]) => ({ label: key, value: cell(value) }));
  const colors = paint(
    colorEnabled(ctx, ctx.stdout, { color: options.color, preference: options.preferences?.color }),
  );
  const maxWidth = ctx.stdout.isTerminal ? terminalWidth(ctx) : undefined;
  const text = renderCard(fields, { maxWidth, label: colors.bold });
  if (text === "" && ctx.stdout.isTerminal) ctx.stderr.write(`${NO_RESULTS}\n`);
  else ctx.stdout.write(text);
}

/** The note that columns were hidden: with their names when that fits on one line. */
function hiddenFooter(hidden: string[], width = Infinity): string {
  const count = hidden.length === 1 ? "1 column" : `${hidden.length} columns`;
  const named = `${count} hidden (${hidden.join(", ")}); --format json for all`;
  return named.length <= width ? named : `${count} hidden; --format json for all`;
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
