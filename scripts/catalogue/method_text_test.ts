import assert from "node:assert/strict";
import { methodTexts, stripPrefix } from "./method_text.ts";

Deno.test("methodTexts() takes the title before the first sentence, and the text after it", () => {
  const { title, methods } = methodTexts("events", [
    "[Feishu/Lark]-Calendar-Event management-Query event view-Call this interface with user " +
    "identity to query the event view under a specified calendar. Unlike the list, it expands",
    "[Feishu/Lark]-Calendar-Event management-Delete Event",
  ]);
  assert.equal(title, "Event management");
  assert.equal(methods[0].summary, "Query event view");
  assert.match(methods[0].description, /^Call this interface with user identity/);
  assert.equal(methods[1].summary, "Delete Event");
  assert.equal(methods[1].description, "Calendar-Event management-Delete Event");
});

Deno.test("methodTexts() keeps dashes inside words and falls back to the resource's name", () => {
  const { title, methods } = methodTexts("mails", ["send an e-mail now"]);
  assert.equal(title, "mails");
  assert.equal(methods[0].summary, "send an e-mail now");
  assert.equal(stripPrefix("[Feishu/Lark]-Docs-Thing"), "Docs-Thing");
});
