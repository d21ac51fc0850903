/**
 * What `--dry-run` prints: the requests a shortcut would send, each once, as JSON; and for a
 * person at a terminal, the change in words (when the shortcut can say it) over a short list of
 * those requests.
 *
 * @module
 */

import type { RequestPreview } from "../http/request.ts";
import { formatJson } from "../output/output.ts";
import { terminalSafe } from "../output/terminal_safe.ts";

/**
 * The previews without repeats: a request the shortcut sends twice (a read before it decides
 * and again just before it writes) is listed once, where it first comes.
 *
 * @param previews the previews, in the order they would be sent
 */
export function uniquePreviews(previews: readonly RequestPreview[]): RequestPreview[] {
  const seen = new Set<string>();
  return previews.filter((preview) => {
    const key = formatJson(preview, false);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The dry run for a terminal: the change in words (the shortcut's {@link summary}, when it has
 * one), then the requests, one line each (method, URL, token) with its body, if any, as compact
 * JSON below; ending with the note that nothing was sent.
 *
 * @param summary the change in words, lines ending with `\n`; none when the shortcut has none
 * @param previews the requests, each once
 * @returns the text, lines ending with `\n`
 */
export function drawDryRun(
  summary: string | undefined,
  previews: readonly RequestPreview[],
): string {
  const safe = (text: string) => terminalSafe(text, { breaks: "escape" });
  const width = Math.max(0, ...previews.map((p) => p.method.length));
  const lines = previews.flatMap((p) => {
    const token = p.token === undefined ? "" : ` (${p.token})`;
    const head = `  ${p.method.padEnd(width)} ${safe(p.url)}${token}`;
    return p.body === undefined
      ? [head]
      : [head, `  ${" ".repeat(width)} ${safe(formatJson(p.body, false))}`];
  });
  const requests = previews.length === 1 ? "1 request" : `${previews.length} requests`;
  return (summary ?? "") + `Would send ${requests}:\n` + lines.join("\n") +
    (lines.length > 0 ? "\n" : "") +
    "Dry run: nothing was sent (--json for the requests as JSON)\n";
}
