/**
 * Aligned text tables that fit the terminal: the least useful columns are hidden first, then
 * free text is cut; ids and times are never cut.
 *
 * @module
 */

import { sanitizeCell, textWidth, truncateToWidth } from "./text_width.ts";

/**
 * What a column holds, which decides whether it may be cut to fit: `"id"` and `"time"` never
 * are (a cut id cannot be copied into the next command, a cut time is useless); `"text"` is cut
 * with `…`.
 */
export type ColumnKind = "text" | "id" | "time";

/** How a table column fits the width. */
export interface TableColumn {
  /** The header. */
  header: string;
  /** What the column holds; default `"text"`. */
  kind?: ColumnKind;
  /**
   * How useful the column is when the width is short: columns are kept in order of priority,
   * highest first, and the rest hidden. Default 0; among equal priorities the leftmost is kept.
   */
  priority?: number;
  /** The narrowest free text is cut to before columns are hidden; default 10. */
  minWidth?: number;
}

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** The width to fit, in columns; no limit when absent. */
  maxWidth?: number;
  /** Styles the header row (bold on a terminal). */
  header?: (text: string) => string;
}

/** A rendered table. */
export interface RenderedTable {
  /** The table, each line ending with a newline. */
  text: string;
  /** Headers of the columns hidden to fit the width, in table order; empty when none were. */
  hidden: string[];
}

const GAP = "  ";
/**
 * Free text is not cut narrower than this (or its own width, or the column's `minWidth`) before
 * columns are hidden.
 */
const MIN_TEXT_WIDTH = 10;

/**
 * Renders rows as a table with a header line. Cells are made safe ({@link sanitizeCell}). When
 * the table is wider than `maxWidth`:
 * 1. id columns are always kept (unless empty); the others are kept by priority, highest first,
 *    while their narrowest forms (times whole, free text down to 10 columns) fit; the rest are
 *    hidden (at least one column stays, even if it alone is too wide);
 * 2. free text is cut with `…`, the least useful column first, to fill the width exactly.
 *
 * @param columns the columns: headers, or headers with a kind and a priority
 * @param rows the cells, as text, in column order
 * @param options width and header style
 * @returns the table and the headers of the hidden columns
 *
 * @example
 * ```ts
 * const { text, hidden } = renderTable(
 *   [{ header: "ID", kind: "id", priority: 2 }, { header: "NOTE", priority: 1 }],
 *   [["ou_1", "a long note"]],
 *   { maxWidth: 20 },
 * );
 * ```
 */
export function renderTable(
  columns: (string | TableColumn)[],
  rows: string[][],
  options: TableOptions = {},
): RenderedTable {
  const specs = columns.map((c) => typeof c === "string" ? { header: c } : c);
  const clean = rows.map((row) => specs.map((_, i) => sanitizeCell(row[i] ?? "")));
  const headers = specs.map((c) => sanitizeCell(c.header));
  const natural = headers.map((h, i) =>
    Math.max(textWidth(h), ...clean.map((row) => textWidth(row[i])))
  );
  const widths = [...natural];
  let shown = specs.map((_, i) => i);
  if (options.maxWidth !== undefined) {
    const maxWidth = options.maxWidth;
    const minimum = specs.map((c, i) =>
      (c.kind ?? "text") === "text"
        ? Math.min(natural[i], Math.max(c.minWidth ?? MIN_TEXT_WIDTH, textWidth(headers[i])))
        : natural[i]
    );
    if (tableWidth(natural) > maxWidth) {
      // A column with nothing in it is the first to go.
      const empty = specs.map((_, i) => clean.length > 0 && clean.every((row) => row[i] === ""));
      // Text whose `minWidth` no longer fits beside the ids may still be cut to the floor.
      const floor = specs.map((c, i) =>
        (c.kind ?? "text") === "text"
          ? Math.min(natural[i], Math.max(MIN_TEXT_WIDTH, textWidth(headers[i])))
          : natural[i]
      );
      shown = keepByPriority(specs, minimum, floor, maxWidth, empty);
    }
    cutText(
      shown.map((i) => widths[i]),
      shown.map((i) => minimum[i]),
      shown.map((i) => specs[i].priority ?? 0),
      maxWidth,
    ).forEach((w, k) => widths[shown[k]] = w);
  }
  const line = (cells: string[], style = (s: string) => s) =>
    shown
      .map((i, k) => {
        const text = truncateToWidth(cells[i], widths[i]);
        const padded = k === shown.length - 1
          ? text
          : text + " ".repeat(Math.max(0, widths[i] - textWidth(text)));
        return style(padded);
      })
      .join(GAP)
      .trimEnd() + "\n";
  return {
    text: line(headers, options.header) + clean.map((row) => line(row)).join(""),
    hidden: specs.filter((_, i) => !shown.includes(i)).map((c) => c.header),
  };
}

/** The width of a table whose columns have `widths`, gaps included. */
function tableWidth(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, widths.length - 1);
}

/**
 * Indexes of the columns kept, in table order: every id column that holds something, then the
 * others by priority while their minimums fit (free text at its `minWidth`, else at the floor of
 * 10, lowering `minimum` for it); a column with nothing in it is not kept (unless nothing else
 * is).
 */
function keepByPriority(
  specs: TableColumn[],
  minimum: number[],
  floor: readonly number[],
  maxWidth: number,
  empty: boolean[],
): number[] {
  const byPriority = specs
    .map((c, i) => ({ i, priority: c.priority ?? 0 }))
    .sort((a, b) =>
      Number(empty[a.i]) - Number(empty[b.i]) || b.priority - a.priority || a.i - b.i
    );
  // An id is what the next command needs: hidden whole is cut too, so every id column that
  // holds something stays, and the others share what is left (a table of ids alone may be
  // wider than the terminal, which wraps it).
  const kept: number[] = specs.flatMap((c, i) => c.kind === "id" && !empty[i] ? [i] : []);
  for (const { i } of byPriority) {
    if (kept.includes(i) || (empty[i] && kept.length > 0)) continue;
    const widths = kept.map((k) => minimum[k]);
    if (kept.length === 0 || tableWidth([...widths, minimum[i]]) <= maxWidth) kept.push(i);
    else if (tableWidth([...widths, floor[i]]) <= maxWidth) {
      // Kept narrower than its minWidth: cutText may now narrow it that far.
      minimum[i] = floor[i];
      kept.push(i);
    }
  }
  return kept.sort((a, b) => a - b);
}

/**
 * Narrows free text until the table fits: the least useful columns first, down to their
 * minimums, before any more useful one; among equal priorities the widest is narrowed first.
 */
function cutText(
  widths: number[],
  minimum: number[],
  priority: number[],
  maxWidth: number,
): number[] {
  const result = [...widths];
  for (const level of [...new Set(priority)].sort((a, b) => a - b)) {
    while (tableWidth(result) > maxWidth) {
      let widest = -1;
      for (let k = 0; k < result.length; k++) {
        if (priority[k] !== level || result[k] <= minimum[k]) continue;
        if (widest === -1 || result[k] > result[widest]) widest = k;
      }
      if (widest === -1) break;
      result[widest] -= 1;
    }
  }
  return result;
}
