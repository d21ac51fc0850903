import assert from "node:assert/strict";
import { AuthError, InternalError, PermissionError, toEnvelope, ValidationError } from "./mod.ts";

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
