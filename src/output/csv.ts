/**
 * CSV output per RFC 4180.
 *
 * @module
 */

/**
 * Renders a header and rows as CSV: fields with a comma, quote, CR or LF are quoted, quotes
 * doubled, lines end with CRLF.
 *
 * @param headers the header fields
 * @param rows the data fields
 */
export function renderCsv(headers: string[], rows: string[][]): string {
  return [headers, ...rows].map((row) => row.map(csvField).join(",") + "\r\n").join("");
}

/**
 * Quotes one CSV field when needed.
 *
 * @param value the field
 */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
