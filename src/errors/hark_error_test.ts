import assert from "node:assert/strict";
import {
  ApiError,
  AuthError,
  CancelledError,
  ExitCode,
  HarkError,
  InternalError,
  NetworkError,
  PendingError,
  PermissionError,
  toHarkError,
  ValidationError,
} from "./mod.ts";

Deno.test("ExitCode follows the spec's table from 0 to 5, and 75 for pending", () => {
  assert.deepEqual(ExitCode, {
    Success: 0,
    General: 1,
    Validation: 2,
    Auth: 3,
    Network: 4,
    Internal: 5,
    Pending: 75,
  });
});

Deno.test("every error kind carries code, type, message and a recovery suggestion", () => {
  const cases: [HarkError, number, string][] = [
    [new ValidationError('Invalid value "x" for "--start"', { param: "--start" }), 2, "validation"],
    [new AuthError("Token expired"), 3, "auth"],
    [new PermissionError("Denied", { scopes: ["im:message:send"] }), 1, "permission"],
    [new ApiError("The service answered with code 1"), 1, "api"],
    [new NetworkError('Cannot reach "open.larksuite.com"'), 4, "network"],
    [new CancelledError(), 1, "cancelled"],
    [new InternalError("Unexpected error: boom"), 5, "internal"],
    [new PendingError("Not approved yet", { command: "hark auth login" }), 75, "pending"],
  ];
  for (const [error, code, type] of cases) {
    assert.ok(error instanceof HarkError, error.name);
    assert.ok(error instanceof Error, error.name);
    assert.equal(error.code, code, error.name);
    assert.equal(error.type, type, error.name);
    assert.ok(error.message.length > 0, error.name);
    assert.ok(error.recovery.suggestion.length > 0, `${error.name} has a suggestion`);
    assert.equal(typeof error.recovery.command, "string", error.name);
    assert.equal(error.name, error.constructor.name);
  }
});

Deno.test("ValidationError names the offending parameter and keeps its cause", () => {
  const cause = new RangeError("bad");
  const error = new ValidationError('Invalid --limit "0"', {
    param: "--limit",
    suggestion: "Give a number from 1 to 100",
    command: "hark contact +search-user --help",
    cause,
  });
  assert.equal(error.param, "--limit");
  assert.equal(error.cause, cause);
  assert.deepEqual(error.recovery, {
    suggestion: "Give a number from 1 to 100",
    command: "hark contact +search-user --help",
  });
});

Deno.test("an error made without a cause has no cause property", () => {
  assert.equal("cause" in new ValidationError("x"), false);
  assert.equal("cause" in new InternalError("x"), false);
});

Deno.test("AuthError suggests signing in again with hark auth login", () => {
  const error = new AuthError("Token expired");
  assert.equal(error.recovery.command, "hark auth login");
  assert.match(error.recovery.suggestion, /sign in/i);
  const overridden = new AuthError("Token invalid", { code: 2 });
  assert.equal(overridden.code, 2);
  assert.equal(overridden.type, "auth");
});

Deno.test("PermissionError builds an upgrade command from the needed scopes", () => {
  const error = new PermissionError("Denied", {
    scopes: ["calendar:calendar:read", "im:message:send"],
  });
  assert.deepEqual(error.scopes, ["calendar:calendar:read", "im:message:send"]);
  assert.equal(
    error.recovery.command,
    "hark auth login --scope calendar:calendar:read --scope im:message:send",
  );
  assert.match(error.recovery.suggestion, /"calendar:calendar:read", "im:message:send"/);
  const none = new PermissionError("Denied");
  assert.deepEqual(none.scopes, []);
  assert.equal(none.recovery.command, "hark auth login");
  assert.match(none.recovery.suggestion, /administrator/);
});

Deno.test("ApiError keeps the API code, HTTP status and request id", () => {
  const error = new ApiError("Not found", { apiCode: 191002, httpStatus: 404, requestId: "log-1" });
  assert.equal(error.apiCode, 191002);
  assert.equal(error.httpStatus, 404);
  assert.equal(error.requestId, "log-1");
  assert.equal(error.code, 1);
  const typed = new ApiError("Slow down", { type: "rate_limit", code: 4 });
  assert.equal(typed.type, "rate_limit");
  assert.equal(typed.code, 4);
});

Deno.test("toHarkError() returns a HarkError unchanged", () => {
  const error = new NetworkError("Cannot reach the host");
  assert.equal(toHarkError(error), error);
});

Deno.test("toHarkError() turns an unexpected exception into a one-line internal error", () => {
  const thrown = new TypeError("Cannot read properties of undefined\n    at somewhere");
  const error = toHarkError(thrown);
  assert.ok(error instanceof InternalError);
  assert.equal(error.code, 5);
  assert.equal(error.type, "internal");
  assert.equal(error.message, "Unexpected error: TypeError: Cannot read properties of undefined");
  assert.ok(!error.message.includes("\n"));
  assert.equal(error.cause, thrown);
  assert.match(error.recovery.suggestion, /--debug/);
});

Deno.test("toHarkError() accepts thrown non-errors", () => {
  const error = toHarkError("a string\nwith two lines");
  assert.equal(error.code, 5);
  assert.equal(error.message, "Unexpected error: a string");
  assert.equal(toHarkError(undefined).message, "Unexpected error: undefined");
});

Deno.test("withRecovery() and withWarnings() copy the error, class and fields, and chain", () => {
  const cause = new Error("socket closed");
  const error = new ApiError("The service failed", {
    apiCode: 99991400,
    httpStatus: 503,
    requestId: "log-1",
    cause,
    mayHaveApplied: true,
  });
  const copy = error.withWarnings(["first"]).withRecovery({ suggestion: "Wait", command: "x" })
    .withWarnings(["second"]);
  assert.ok(copy instanceof ApiError);
  assert.notEqual(copy, error);
  assert.deepEqual(
    [copy.message, copy.code, copy.type, copy.apiCode, copy.httpStatus, copy.requestId],
    ["The service failed", 1, "api", 99991400, 503, "log-1"],
  );
  assert.equal(copy.cause, cause);
  assert.equal(copy.mayHaveApplied, true);
  assert.deepEqual(copy.recovery, { suggestion: "Wait", command: "x" });
  assert.deepEqual(copy.warnings, ["first", "second"]);
  assert.deepEqual(error.warnings, [], "the original is unchanged");
  assert.equal(error.withWarnings([]), error);
});
