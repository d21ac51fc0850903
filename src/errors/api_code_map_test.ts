import assert from "node:assert/strict";
import {
  ApiError,
  AuthError,
  classifyApiCode,
  errorFromApiCode,
  neededScopes,
  PermissionError,
  toEnvelope,
} from "./mod.ts";

Deno.test("230001 maps to exit code 2, type auth, and a login command", () => {
  const error = errorFromApiCode({ code: 230001, msg: "token expired" });
  assert.ok(error instanceof AuthError);
  assert.equal(error.code, 2);
  assert.equal(error.type, "auth");
  assert.match(error.message, /token invalid or expired/i);
  assert.match(error.message, /token expired/);
  assert.equal(error.recovery.command, "hark auth login");
});

Deno.test("230002 maps to exit code 2, type permission, and a login with --scope", () => {
  const error = errorFromApiCode({
    code: 230002,
    msg: "no permission",
    error: { permission_violations: [{ subject: "im:message:send" }] },
  });
  assert.ok(error instanceof PermissionError);
  assert.equal(error.code, 2);
  assert.equal(error.type, "permission");
  assert.match(error.message, /insufficient permission/i);
  assert.equal(error.recovery.command, "hark auth login --scope im:message:send");
  assert.equal((error as PermissionError).apiCode, 230002);
});

Deno.test("230002 without a known scope still recommends a login with --scope", () => {
  const error = errorFromApiCode({ code: 230002 });
  assert.equal(error.code, 2);
  assert.equal(error.recovery.command, "hark auth login --scope <scope>");
});

Deno.test("230002 falls back to the scopes the caller knows", () => {
  const error = errorFromApiCode({ code: 230002 }, { scopes: ["calendar:calendar:read"] });
  assert.equal(error.recovery.command, "hark auth login --scope calendar:calendar:read");
});

Deno.test("999914 maps to exit code 2, type mfa, pointing at security settings", () => {
  const error = errorFromApiCode({ code: 999914 }, { httpStatus: 400, requestId: "req-9" });
  assert.ok(error instanceof ApiError);
  assert.equal(error.code, 2);
  assert.equal(error.type, "mfa");
  assert.match(error.message, /multi-factor/i);
  assert.match(error.recovery.suggestion, /security settings/);
  assert.equal(error.apiCode, 999914);
  assert.equal(error.httpStatus, 400);
  assert.equal(error.requestId, "req-9");
});

Deno.test("500000 maps to exit code 4, type server_error, retry later", () => {
  const error = errorFromApiCode({ code: 500000, msg: "internal" }, { httpStatus: 500 });
  assert.ok(error instanceof ApiError);
  assert.equal(error.code, 4);
  assert.equal(error.type, "server_error");
  assert.match(error.message, /temporarily unavailable/i);
  assert.match(error.recovery.suggestion, /retry later/i);
});

Deno.test("the spec's four codes give their mapped code as the envelope's code", () => {
  const expected: Record<number, [number, string]> = {
    230001: [2, "auth"],
    230002: [2, "permission"],
    999914: [2, "mfa"],
    500000: [4, "server_error"],
  };
  for (const [apiCode, [code, type]] of Object.entries(expected)) {
    const envelope = toEnvelope(errorFromApiCode({ code: Number(apiCode) }));
    assert.equal(envelope.error.code, code, apiCode);
    assert.equal(envelope.error.type, type, apiCode);
    assert.ok(envelope.error.recovery.suggestion, apiCode);
    assert.ok(envelope.error.recovery.command, apiCode);
  }
});

Deno.test("classifyApiCode() knows DESIGN.md's Lark codes", () => {
  for (const code of [99991663, 99991668, 99991677]) {
    assert.equal(classifyApiCode(code), "token_invalid", String(code));
  }
  for (const code of [99991672, 99991679]) {
    assert.equal(classifyApiCode(code), "permission", String(code));
  }
  assert.equal(classifyApiCode(99991400), "rate_limit");
  assert.equal(classifyApiCode(0), undefined);
  assert.equal(classifyApiCode(230001), undefined);
  assert.equal(classifyApiCode(191002), undefined);
});

Deno.test("Lark token codes become AuthError with exit code 3", () => {
  for (const code of [99991663, 99991668, 99991677]) {
    const error = errorFromApiCode({ code, msg: "Invalid access token" });
    assert.ok(error instanceof AuthError, String(code));
    assert.equal(error.code, 3);
    assert.equal(error.recovery.command, "hark auth login");
    assert.match(error.message, new RegExp(String(code)));
  }
});

Deno.test("Lark permission codes become PermissionError with exit 1 and the needed scope", () => {
  const error = errorFromApiCode({
    code: 99991672,
    msg: "Access denied. One of the following scopes is required: [calendar:calendar:read]",
  });
  assert.ok(error instanceof PermissionError);
  assert.equal(error.code, 1);
  assert.deepEqual((error as PermissionError).scopes, ["calendar:calendar:read"]);
  assert.equal(error.recovery.command, "hark auth login --scope calendar:calendar:read");
});

Deno.test("99991400 is a rate limit with exit 1", () => {
  const error = errorFromApiCode({ code: 99991400, msg: "request trigger frequency limit" });
  assert.ok(error instanceof ApiError);
  assert.equal(error.code, 1);
  assert.equal(error.type, "rate_limit");
});

Deno.test("an unmapped code is an ApiError with exit 1 that keeps the service's message", () => {
  const error = errorFromApiCode(
    { code: 191002, msg: "calendar not found", error: { log_id: "log-77" } },
    { httpStatus: 404 },
  );
  assert.ok(error instanceof ApiError);
  assert.equal(error.code, 1);
  assert.equal(error.type, "api");
  assert.equal(error.message, "The service answered with code 191002: calendar not found");
  assert.equal((error as ApiError).requestId, "log-77");
  assert.equal((error as ApiError).httpStatus, 404);
});

Deno.test("neededScopes() prefers permission_violations and removes duplicates", () => {
  assert.deepEqual(
    neededScopes({
      code: 99991679,
      msg: "scopes [other:scope:x]",
      error: {
        permission_violations: [
          { subject: "im:message:send" },
          { subject: "im:message:send" },
          { subject: "im:chat:read" },
          {},
        ],
      },
    }),
    ["im:message:send", "im:chat:read"],
  );
});

Deno.test("neededScopes() reads a bracketed list from the message", () => {
  assert.deepEqual(
    neededScopes({ code: 99991672, msg: "required: [im:message:send, im:message]" }),
    ["im:message:send", "im:message"],
  );
  assert.deepEqual(neededScopes({ code: 99991672, msg: "no list here" }), []);
  assert.deepEqual(neededScopes({ code: 99991672, msg: "[not a scope]" }), []);
  assert.deepEqual(neededScopes({ code: 99991672 }), []);
});
