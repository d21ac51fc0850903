/**
 * Output: json / table / csv, colour and terminal rules.
 *
 * @module
 */

export { colorEnabled, type ColorSettings, type Paint, paint } from "./color.ts";
export { csvField, renderCsv } from "./csv.ts";
export { type Column, formatJson, type OutputOptions, resolveFormat, writeData } from "./output.ts";
export { renderTable, type TableOptions } from "./table.ts";
export { sanitizeCell, textWidth, truncateToWidth } from "./text_width.ts";
