/**
 * Output: json / ndjson / table / card / csv, colour and terminal rules, terminal-safe text, the spinner.
 *
 * @module
 */

export { type CardField, type CardOptions, renderCard } from "./card.ts";
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
export {
  type ColumnKind,
  type RenderedTable,
  renderTable,
  type TableColumn,
  type TableOptions,
} from "./table.ts";
export { DEFAULT_PAGER, openPager, type PagedOutput, pagerCommand } from "./pager.ts";
export { createSpinner, type Spinner, spinnerEnabled, type SpinnerOptions } from "./spinner.ts";
export { terminalSafe, type TerminalSafeOptions } from "./terminal_safe.ts";
export { sanitizeCell, textWidth, truncateToWidth } from "./text_width.ts";
export { type WrapOptions, wrapText } from "./wrap.ts";
