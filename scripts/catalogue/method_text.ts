/**
 * The help texts of methods and resources from lark-mcp's descriptions, which read
 * `[<product tag>]-<category>-…-<category>-<title>-<what it does>` (the last part may be missing):
 * the title is the part before the first long one (a sentence), the category before it names
 * the resource.
 *
 * @module
 */

import { cleanText } from "./zod_fields.ts";

/** The longest method description kept, in characters. */
export const METHOD_DESCRIPTION_MAX = 600;
/** The longest one-line summary, in characters. */
export const SUMMARY_MAX = 90;

/**
 * The description without its bracketed product tag and the dash after it.
 *
 * @param description lark-mcp's description
 */
export function stripPrefix(description: string): string {
  return description.replace(/^\s*\[[^\]]*\]\s*-\s*/, "");
}

/** The `-`-separated parts of a description (a dash inside a word, `e-mail`, does not split). */
function parts(description: string): string[] {
  return stripPrefix(description).split(/\s*-\s*(?=[A-Z\[\d（(])/)
    .map((p) => p.trim()).filter((p) => p !== "");
}

/** Whether a part is a sentence rather than a title. */
function isSentence(part: string): boolean {
  return part.length > 60 || /[.。]\s/.test(part);
}

/** The title's place among the parts: before the first sentence, else the last. */
function titleAt(list: readonly string[]): number {
  const sentence = list.findIndex(isSentence);
  return sentence > 0 ? sentence - 1 : sentence === 0 ? 0 : list.length - 1;
}

/** What {@link methodTexts} gives a method. */
export interface MethodText {
  /** One line for listings: the method's title. */
  summary: string;
  /** What it does: the description after the title, cleaned and shortened. */
  description: string;
}

/**
 * The texts of a resource's methods and the resource's title.
 *
 * @param resourceName the resource's command name, the title when the texts give none
 * @param descriptions lark-mcp's description of each method of the resource, in order
 * @returns the title (the category most of its methods are filed under), and each method's
 *   texts in the same order
 */
export function methodTexts(
  resourceName: string,
  descriptions: readonly string[],
): { title: string; methods: MethodText[] } {
  const categories = new Map<string, number>();
  const methods = descriptions.map((description) => {
    const list = parts(description);
    const at = titleAt(list);
    if (at > 0) categories.set(list[at - 1], (categories.get(list[at - 1]) ?? 0) + 1);
    const text = list.slice(at + 1).join(" - ");
    return {
      summary: cleanText(list[at] ?? stripPrefix(description), SUMMARY_MAX),
      description: cleanText(text === "" ? stripPrefix(description) : text, METHOD_DESCRIPTION_MAX),
    };
  });
  const [top] = [...categories].sort((a, b) => b[1] - a[1]);
  return { title: top ? cleanText(top[0], SUMMARY_MAX) : resourceName, methods };
}
