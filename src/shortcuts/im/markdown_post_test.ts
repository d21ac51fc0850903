import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { BLANK_LINE, markdownParagraphs } from "./markdown_post.ts";

const md = (text: string) => [{ tag: "md", text }];
const blank = [{ tag: "text", text: BLANK_LINE }];

Deno.test("markdownParagraphs() keeps text without blank lines, headings or images as one md", () => {
  assert.deepEqual(markdownParagraphs("**Done**: see the [report](https://x.test)\n- a\n- b"), [
    md("**Done**: see the [report](https://x.test)\n- a\n- b"),
  ]);
});

Deno.test("markdownParagraphs() makes each paragraph its own md, a blank line an empty paragraph", () => {
  assert.deepEqual(markdownParagraphs("first\nline two\n\nsecond\n\n\n\nthird\n"), [
    md("first\nline two"),
    blank,
    md("second"),
    blank,
    blank,
    blank,
    md("third"),
  ]);
  // Leading and trailing blank lines (and Windows line ends) add nothing.
  assert.deepEqual(markdownParagraphs("\r\n\r\nonly\r\n\r\n"), [md("only")]);
});

Deno.test("markdownParagraphs() scales headings to the message when any of levels 1 to 3 is used", () => {
  assert.deepEqual(markdownParagraphs("# Release\n## Fixes\n#### Detail\nbody"), [
    md("#### Release\n##### Fixes\n##### Detail\nbody"),
  ]);
  // Levels 4 and 5 alone already fit: unchanged.
  assert.deepEqual(markdownParagraphs("#### Small\n##### Smaller"), [
    md("#### Small\n##### Smaller"),
  ]);
  // A # that is not a heading (no space after it) stays.
  assert.deepEqual(markdownParagraphs("#hashtag"), [md("#hashtag")]);
});

Deno.test("markdownParagraphs() leaves fenced code exactly as written, blank lines and # included", () => {
  const code = "```sh\n# a comment, not a heading\n\nnpm test\n```";
  assert.deepEqual(markdownParagraphs(`# Run\n${code}\n\ndone`), [
    md(`#### Run\n${code}`),
    blank,
    md("done"),
  ]);
  // An image inside code is code, not an image.
  assert.deepEqual(markdownParagraphs("```\n![x](https://a.test/i.png)\n```"), [
    md("```\n![x](https://a.test/i.png)\n```"),
  ]);
});

Deno.test("markdownParagraphs() keeps an uploaded image, refuses one Lark would drop, naming --markdown", () => {
  assert.deepEqual(markdownParagraphs("![chart](img_v3_02ab-cd)"), [
    md("![chart](img_v3_02ab-cd)"),
  ]);
  for (const image of ["https://example.com/a.png", "./a.png", ""]) {
    assert.throws(
      () => markdownParagraphs(`see\n![chart](${image})`),
      (e: unknown) =>
        e instanceof ValidationError && e.param === "--markdown" &&
        e.message.includes("would be dropped") &&
        /--image/.test(e.recovery.suggestion),
    );
  }
});
