/**
 * Aligned text tables, shrunk to the terminal's width.
 *
 * @module
 */

import { sanitizeCell, textWidth, truncateToWidth } from "./text_width.ts";

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** The width to fit, in columns; no limit when absent. */
  maxWidth?: number;
  /** Styles the header row (bold on a terminal). */
  header?: (text: string) => string;
}

const GAP = "  ";

/**
 * Renders rows as a table with a header line. Cells are sanitised; when the table is wider than
 * `maxWidth`, the widest columns are truncated with `…` until it fits.
 *
 * @param headers the column headers
 * @param rows the cells, as text
 * @param options width and header style
 * @returns the table, each line ending with a newline
 */
export function renderTable(
  headers: string[],
  rows: string[][],
  options: TableOptions = {},
): string {
  const clean = rows.map((row) => headers.map((_, i) => sanitizeCell(row[i] ?? "")));
  const widths = headers.map((h, i) =>
    Math.max(textWidth(h), ...clean.map((row) => textWidth(row[i])))
  );
  if (options.maxWidth !== undefined) shrink(widths, options.maxWidth);
  const line = (cells: string[], style = (s: string) => s) =>
    cells
      .map((cell, i) => {
        const text = truncateToWidth(cell, Math.max(1, widths[i]));
        const padded = i === cells.length - 1
          ? text
          : text + " ".repeat(Math.max(0, widths[i] - textWidth(text)));
        return style(padded);
      })
      .join(GAP)
      .trimEnd() + "\n";
  return line(headers, options.header) + clean.map((row) => line(row)).join("");
}

function shrink(widths: number[], maxWidth: number): void {
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);
  while (total() > maxWidth) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= 4) break;
    widths[widest] -= 1;
  }
}
