/**
 * `--markdown` as the paragraphs of a post, shaped for what Lark's `md` element renders. Sent as
 * one `md` element unchanged, Markdown comes out mangled in a chat; the facts, from lark-cli's
 * post builder (`shortcuts/im/helpers.go`, `optimizeMarkdownStyle` and the segmented post):
 * - blank lines: an `md` element does not keep the blank line between paragraphs, so each
 *   paragraph is its own `md` element, and each blank line an empty paragraph between them;
 * - headings: `#` to `###` render oversized, `####` and `#####` fit a message; when the text has
 *   any of the first three levels, `#` becomes `####` and `##` to `######` become `#####`;
 * - images: an `md` element shows only an image uploaded to Lark (`![alt](img_…)`); any other
 *   is dropped without a word, so hark refuses it and says how to send it instead.
 * Fenced code blocks are left exactly as written: no rule applies inside them.
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";

/** One element of a post paragraph. */
export interface PostElement {
  /** `md` for Markdown, `text` for the empty paragraph of a blank line. */
  tag: "md" | "text";
  /** The element's text. */
  text: string;
}

/** What an empty paragraph holds: a zero-width space (an empty text element is refused). */
export const BLANK_LINE = "\u200b";

/** A block of the text: code kept whole, or other lines. */
interface Block {
  code: boolean;
  lines: string[];
}

/** Splits the lines into fenced code blocks (``` or ~~~, to the matching fence) and the rest. */
function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let fence: string | undefined;
  for (const line of lines) {
    if (fence !== undefined && current?.code) {
      current.lines.push(line);
      if (new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = undefined;
      continue;
    }
    const opens = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opens) {
      fence = opens[1];
      current = { code: true, lines: [line] };
      blocks.push(current);
      continue;
    }
    if (current === undefined || current.code) {
      current = { code: false, lines: [] };
      blocks.push(current);
    }
    current.lines.push(line);
  }
  return blocks;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*)$/;

/** The heading levels Lark's `md` renders at a message's size: 1 → 4, 2 to 6 → 5. */
function downgradeHeading(line: string): string {
  const m = HEADING.exec(line);
  if (!m) return line;
  return `${m[1].length === 1 ? "####" : "#####"} ${m[2]}`;
}

/** The image references of a line: `![alt](target)`. */
const IMAGE = /!\[[^\]]*\]\(\s*([^)\s]*)[^)]*\)/g;

/** Refuses an image that is not an uploaded image key. */
function checkImages(line: string): void {
  for (const m of line.matchAll(IMAGE)) {
    if (/^img_[\w-]+$/.test(m[1])) continue;
    throw new ValidationError(
      `Invalid value for --markdown: the image ${
        JSON.stringify(m[1].slice(0, 80))
      } would be dropped (Lark's md element shows only images uploaded to Lark, ![alt](img_…))`,
      {
        param: "--markdown",
        suggestion: "Send the picture with --image in a message of its own, or link it with " +
          "[alt](url) instead of ![alt](url)",
      },
    );
  }
}

/**
 * The paragraphs of a post for `--markdown`: one `md` element per paragraph, an empty paragraph
 * per blank line between them, headings scaled to the message, images checked.
 *
 * @param markdown the text of `--markdown`
 * @returns the post's `content`: paragraphs of elements
 * @throws {ValidationError} naming `--markdown` for an image Lark would drop
 * @example
 * ```ts
 * markdownParagraphs("# Done\n\nAll **green**");
 * // [[{tag: "md", text: "#### Done"}], [{tag: "text", text: "\u200b"}],
 * //  [{tag: "md", text: "All **green**"}]]
 * ```
 */
export function markdownParagraphs(markdown: string): PostElement[][] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const blocks = blocksOf(lines);
  const prose = blocks.filter((b) => !b.code).flatMap((b) => b.lines);
  const scale = prose.some((line) => /^ {0,3}#{1,3}[ \t]/.test(line));
  for (const line of prose) checkImages(line);
  // Paragraphs: runs of lines between blank lines; a code block joins the run it is in.
  const paragraphs: PostElement[][] = [];
  let run: string[] = [];
  let blanks = 0;
  const flush = () => {
    if (run.length === 0) return;
    if (paragraphs.length > 0) {
      for (let i = 0; i < Math.max(1, blanks); i++) {
        paragraphs.push([{ tag: "text", text: BLANK_LINE }]);
      }
    }
    paragraphs.push([{ tag: "md", text: run.join("\n") }]);
    run = [];
    blanks = 0;
  };
  for (const block of blocks) {
    if (block.code) {
      run.push(...block.lines);
      continue;
    }
    for (const line of block.lines) {
      if (line.trim() === "") {
        if (run.length > 0) flush();
        if (paragraphs.length > 0) blanks++;
        continue;
      }
      run.push(scale ? downgradeHeading(line) : line);
    }
  }
  flush();
  return paragraphs;
}
