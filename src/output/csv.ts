/**
 * CSV output per RFC 4180, safe to open in a spreadsheet and to print to a terminal.
 *
 * @module
 */

import { terminalSafe } from "./terminal_safe.ts";

/** Options of {@link renderCsv}. */
export interface CsvOptions {
  /**
   * Leave cells that a spreadsheet would run as a formula as they are (`--csv-raw`). Default
   * false: such cells are prefixed with `'` ({@link csvCell}).
   */
  raw?: boolean;
}

/**
 * Renders a header and rows as CSV: each cell made safe ({@link csvCell}), quoted when needed
 * ({@link csvField}), lines ending with CRLF.
 *
 * @param headers the header fields
 * @param rows the data fields
 * @param options whether formula cells stay raw
 * @returns the CSV text
 */
export function renderCsv(headers: string[], rows: string[][], options: CsvOptions = {}): string {
  return [headers, ...rows]
    .map((row) => row.map((cell) => csvField(csvCell(cell, options))).join(",") + "\r\n")
    .join("");
}

/**
 * One cell's text before quoting: controls, bidi and invisible format characters escaped
 * ({@link terminalSafe}; line breaks and tabs stay), and, unless `raw`, a cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return prefixed with `'` so a spreadsheet shows it as
 * text instead of running it (OWASP's rule against CSV injection).
 *
 * @param value the cell
 * @param options whether formula cells stay raw
 * @returns the cell's safe text
 */
export function csvCell(value: string, options: CsvOptions = {}): string {
  const safe = terminalSafe(value);
  return !options.raw && /^[=+\-@\t\r]/.test(safe) ? `'${safe}` : safe;
}

/**
 * Quotes one CSV field when needed: fields with a comma, quote, CR or LF are quoted, quotes
 * doubled.
 *
 * @param value the field
 * @returns the field as written in the file
 */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
