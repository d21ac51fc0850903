/**
 * Output: json / ndjson / table / card / csv, colour and terminal rules, terminal-safe text, the spinner.
 * Drawing and measuring text (tables, cards, wrapping, widths) is imported from its own modules
 * (`table.ts`, `card.ts`, `wrap.ts`, `text_width.ts`) by the code that draws: they bring the
 * text-width library, which a command writing JSON never loads (see `output.ts`).
 *
 * @module
 */

export type { CardField, CardOptions } from "./card.ts";
export { colorEnabled, type ColorSettings, type Paint, paint } from "./color.ts";
export { csvCell, csvField, type CsvOptions, renderCsv } from "./csv.ts";
export {
  collectedStream,
  type Column,
  type DataStream,
  DEFAULT_TERMINAL_WIDTH,
  formatJson,
  NO_RESULTS,
  openDataStream,
  type OutputOptions,
  resolveFormat,
  terminalWidth,
  writeData,
} from "./output.ts";
export type { ColumnKind, RenderedTable, TableColumn, TableOptions } from "./table.ts";
export { DEFAULT_PAGER, openPager, type PagedOutput, pagerCommand } from "./pager.ts";
export { createSpinner, type Spinner, spinnerEnabled, type SpinnerOptions } from "./spinner.ts";
export { terminalSafe, type TerminalSafeOptions } from "./terminal_safe.ts";
export type { WrapOptions } from "./wrap.ts";
