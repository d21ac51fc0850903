import assert from "node:assert/strict";
import { AuthError, InternalError, ValidationError } from "../errors/mod.ts";
import { paint } from "../output/color.ts";
import { renderError } from "./render_error.ts";

const options = { json: false, debug: false, helpCommand: "hark config set --help" };

Deno.test("renderError() in JSON mode prints the envelope on one line", () => {
  const text = renderError(new ValidationError("Invalid --x"), { ...options, json: true });
  assert.ok(text.endsWith("}\n"));
  assert.equal(text.trim().split("\n").length, 1);
  assert.deepEqual(JSON.parse(text), {
    error: {
      code: 2,
      type: "validation",
      message: "Invalid --x",
      recovery: { suggestion: "Check the value and try again", command: "hark config set --help" },
    },
  });
});

Deno.test("renderError() in text mode prints message, suggestion and command", () => {
  assert.equal(
    renderError(new AuthError("Token expired"), options),
    "error: Token expired\n  Sign in again\n  Run: hark auth login\n",
  );
  assert.equal(
    renderError(new ValidationError("Invalid --x"), options),
    "error: Invalid --x\n  Check the value and try again\n  Run: hark config set --help\n",
  );
});

Deno.test("renderError() colours the text form only with an enabled paint", () => {
  const coloured = renderError(new AuthError("Expired"), { ...options, paint: paint(true) });
  assert.ok(coloured.startsWith("\x1b[31merror:\x1b[39m Expired\n"));
  assert.ok(coloured.includes("\x1b[1mhark auth login\x1b[22m"));
  const plain = renderError(new AuthError("Expired"), { ...options, paint: paint(false) });
  assert.ok(!plain.includes("\x1b"));
  const json = renderError(new AuthError("Expired"), {
    ...options,
    json: true,
    paint: paint(true),
  });
  assert.ok(!json.includes("\x1b"), "the JSON envelope is never coloured");
});

Deno.test("renderError() shows no stack trace without debug", () => {
  const error = new InternalError("Unexpected error: TypeError: x", new TypeError("x"));
  for (const json of [false, true]) {
    const text = renderError(error, { ...options, json });
    assert.ok(!/\n\s+at /.test(text), text);
  }
});

Deno.test("renderError() with debug adds the stacks of the error and its causes", () => {
  const root = new RangeError("deep cause");
  const middle = new Error("middle", { cause: root });
  const error = new InternalError("Unexpected error: Error: middle", middle);
  const text = renderError(error, { ...options, debug: true });
  assert.ok(text.startsWith("error: Unexpected error: Error: middle\n"));
  assert.match(text, /InternalError: Unexpected error: Error: middle\n\s+at /);
  assert.match(text, /\nError: middle\n\s+at /);
  assert.match(text, /\nRangeError: deep cause\n\s+at /);
});
