import assert from "node:assert/strict";
import { logIdNote, logIdOf, MAX_LOG_ID, MAX_SERVICE_MSG, serviceMsg } from "./service_text.ts";

Deno.test("serviceMsg() cuts the service's msg to MAX_SERVICE_MSG characters, the rest counted", () => {
  assert.equal(serviceMsg("short"), "short");
  assert.equal(serviceMsg(""), undefined);
  assert.equal(serviceMsg({ not: "text" }), undefined);
  assert.equal(serviceMsg("x".repeat(MAX_SERVICE_MSG)), "x".repeat(MAX_SERVICE_MSG));
  assert.equal(
    serviceMsg("x".repeat(MAX_SERVICE_MSG + 5)),
    `${"x".repeat(MAX_SERVICE_MSG)}… (5 more characters)`,
  );
  // Never inside a surrogate pair.
  const emoji = `${"x".repeat(MAX_SERVICE_MSG - 1)}😀tail`;
  assert.equal(serviceMsg(emoji), `${"x".repeat(MAX_SERVICE_MSG - 1)}… (6 more characters)`);
});

Deno.test("logIdOf() takes a log id that looks like one, and nothing else", () => {
  assert.equal(logIdOf(" 20261122101500ABCDEF "), "20261122101500ABCDEF");
  for (const bad of ["", "\x1b]0;pwned\x07", "a b", "x".repeat(MAX_LOG_ID + 1), 42, undefined]) {
    assert.equal(logIdOf(bad), undefined, JSON.stringify(bad));
  }
});

Deno.test("logIdNote() names the log id, or adds nothing without one", () => {
  assert.equal(logIdNote("log-1"), " (log id log-1)");
  assert.equal(logIdNote(undefined), "");
});
