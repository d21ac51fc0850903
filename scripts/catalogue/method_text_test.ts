import assert from "node:assert/strict";
import { methodTexts, stripPrefix } from "./method_text.ts";

Deno.test("methodTexts() takes the title before the first sentence, and the text after it", () => {
  const { title, methods } = methodTexts("gadgets", [
    // Invented text of the package's shape: the test carries none of Lark's descriptions.
    "[Acme/Suite]-Widgets-Gadget handling-Look up gadgets-Reads the gadgets of one widget. " +
    "Unlike the plain listing, it opens every box",
    "[Acme/Suite]-Widgets-Gadget handling-Drop Gadget",
  ]);
  assert.equal(title, "Gadget handling");
  assert.equal(methods[0].summary, "Look up gadgets");
  assert.match(methods[0].description, /^Reads the gadgets of one widget/);
  assert.equal(methods[1].summary, "Drop Gadget");
  assert.equal(methods[1].description, "Widgets-Gadget handling-Drop Gadget");
});

Deno.test("methodTexts() keeps dashes inside words and falls back to the resource's name", () => {
  const { title, methods } = methodTexts("mails", ["send an e-mail now"]);
  assert.equal(title, "mails");
  assert.equal(methods[0].summary, "send an e-mail now");
  assert.equal(stripPrefix("[Acme/Suite]-Docs-Thing"), "Docs-Thing");
});
