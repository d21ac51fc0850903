import assert from "node:assert/strict";
import {
  ApiError,
  AuthError,
  CancelledError,
  fallbackCommand,
  formatErrorText,
  type HarkError,
  InternalError,
  NetworkError,
  PermissionError,
  toEnvelope,
  ValidationError,
} from "./mod.ts";

Deno.test("toEnvelope() has exactly the spec's fields", () => {
  const envelope = toEnvelope(new PermissionError("Denied", { scopes: ["im:message:send"] }));
  assert.deepEqual(envelope, {
    error: {
      code: 1,
      type: "permission",
      message: "Denied",
      recovery: {
        suggestion: 'Sign in again granting "im:message:send"',
        command: "hark auth login --scope im:message:send",
      },
    },
  });
  assert.deepEqual(Object.keys(envelope.error), ["code", "type", "message", "recovery"]);
});

Deno.test("toEnvelope() fills an empty recovery command with the help command", () => {
  const error = new ValidationError("Invalid --start");
  assert.equal(error.recovery.command, "");
  assert.equal(toEnvelope(error).error.recovery.command, "hark --help");
  assert.equal(
    toEnvelope(error, "hark calendar +agenda --help").error.recovery.command,
    "hark calendar +agenda --help",
  );
  const withCommand = new AuthError("Expired");
  assert.equal(toEnvelope(withCommand, "hark x --help").error.recovery.command, "hark auth login");
});

Deno.test("toEnvelope() is serialisable and round-trips through JSON", () => {
  const envelope = toEnvelope(new InternalError("Unexpected error: boom", new Error("boom")));
  assert.deepEqual(JSON.parse(JSON.stringify(envelope)), envelope);
  assert.equal(envelope.error.code, 5);
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

Deno.test("formatErrorText() keeps line breaks in the message, escapes them in the command", () => {
  const text = formatErrorText({
    error: {
      code: 2,
      type: "validation",
      message: "Two problems:\r\n- one\n- two",
      recovery: { suggestion: "", command: "hark x\r\ny" },
    },
  });
  assert.equal(text, "error: Two problems:\n- one\n- two\n  Run: hark x\\x0d\\x0ay\n");
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

Deno.test("toEnvelope() offers the command line again where retrying is the fix, else the help", () => {
  const fallbacks = {
    help: "hark contact +search-user --help",
    rerun: "hark contact +search-user --query alice",
  };
  const command = (error: HarkError) => toEnvelope(error, fallbacks).error.recovery.command;
  assert.equal(command(new NetworkError("No answer")), fallbacks.rerun);
  assert.equal(command(new CancelledError()), fallbacks.rerun);
  assert.equal(command(new ApiError("Unavailable", { type: "server_error" })), fallbacks.rerun);
  assert.equal(command(new ApiError("Slow down", { type: "rate_limit" })), fallbacks.rerun);
  assert.equal(command(new ValidationError("Invalid --query")), fallbacks.help);
  assert.equal(command(new ApiError("Bad field")), fallbacks.help);
  assert.equal(
    command(new InternalError("Unexpected error: x")),
    "hark contact +search-user --query alice --debug",
  );
  // Without a command line to repeat (a secret was on it), the help.
  assert.equal(
    toEnvelope(new NetworkError("x"), { help: "hark config init --help" }).error.recovery.command,
    "hark config init --help",
  );
  // An error's own command always wins.
  assert.equal(command(new AuthError("Expired")), "hark auth login");
  assert.equal(
    fallbackCommand(new InternalError("x"), { help: "h", rerun: "hark a --debug" }),
    "hark a --debug",
  );
});
