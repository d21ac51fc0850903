import assert from "node:assert/strict";
import { ApiError, AuthError, type HarkError, PermissionError } from "../errors/mod.ts";
import { type AnsweredRequest, type AnswerVerdict, classifyAnswer } from "./classify_answer.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const GET: AnsweredRequest = {
  method: "GET",
  path: "/open-apis/x",
  idempotent: true,
  scopes: ["a:b:c"],
};
const POST = { ...GET, method: "POST", idempotent: false };

const json = (body: unknown) => JSON.stringify(body);

/** One row: the answer, the request, and what it must mean. */
interface Row {
  name: string;
  status: number;
  text: string;
  request?: typeof GET;
  retryAfter?: string;
  rateLimitReset?: string;
  expect: {
    kind: AnswerVerdict["kind"];
    data?: unknown;
    error?: new (...args: never[]) => Error;
    type?: string;
    code?: number;
    retry?: boolean;
    retryAfterMs?: number;
    scopes?: string[];
    message?: RegExp;
    command?: string;
    suggestion?: RegExp;
  };
}

const ROWS: Row[] = [
  {
    name: "data of the envelope",
    status: 200,
    text: json({ code: 0, data: { a: 1 } }),
    expect: { kind: "data", data: { a: 1 } },
  },
  {
    name: "a body without envelope",
    status: 200,
    text: json({ a: 1 }),
    expect: { kind: "data", data: { a: 1 } },
  },
  { name: "an empty body", status: 204, text: "", expect: { kind: "data", data: undefined } },
  {
    name: "code 0 without data",
    status: 200,
    text: json({ code: 0, msg: "ok" }),
    expect: { kind: "data", data: { code: 0, msg: "ok" } },
  },
  { name: "HTTP 401", status: 401, text: "", expect: { kind: "token_rejected", error: AuthError } },
  {
    name: "code 99991663 under 400",
    status: 400,
    text: json({ code: 99991663, msg: "bad" }),
    expect: { kind: "token_rejected", error: AuthError },
  },
  {
    name: "code 99991677 under 200",
    status: 200,
    text: json({ code: 99991677 }),
    expect: { kind: "token_rejected", error: AuthError },
  },
  {
    name: "HTTP 403 without body names the request's scopes",
    status: 403,
    text: "",
    expect: { kind: "error", error: PermissionError, retry: false, scopes: ["a:b:c"] },
  },
  {
    name: "code 99991672 names the violated scope",
    status: 400,
    text: json({
      code: 99991672,
      msg: "denied",
      error: { permission_violations: [{ subject: "x:y:z" }] },
    }),
    expect: { kind: "error", error: PermissionError, retry: false, scopes: ["x:y:z"] },
  },
  {
    name: "code 230002 is a permission error, exit 2",
    status: 400,
    text: json({ code: 230002 }),
    expect: { kind: "error", error: PermissionError, code: 2, retry: false },
  },
  {
    name: "HTTP 403 with 191002 (no access role on the calendar) asks for no sign-in",
    status: 403,
    text: json({ code: 191002, msg: "no calendar access_role" }),
    expect: {
      kind: "error",
      error: ApiError,
      type: "permission",
      code: 1,
      retry: false,
      message: /^No access to that calendar \(code 191002\): no calendar access_role/,
      command: "hark calendar +calendars",
      suggestion: /owner has to share it/,
    },
  },
  {
    name: "HTTP 403 with a code that is no permission code is about the resource, not a scope",
    status: 403,
    text: json({ code: 1234567, msg: "the resource is locked" }),
    expect: {
      kind: "error",
      error: ApiError,
      type: "permission",
      code: 1,
      retry: false,
      message: /^Access denied \(HTTP 403, code 1234567\): the resource is locked/,
      suggestion: /no scope changes/,
    },
  },
  {
    name: "99991543 (wrong app id or secret) is a final config error, exit 3, even under 401",
    status: 401,
    text: json({ code: 99991543, msg: "app_id or app_secret is invalid" }),
    expect: {
      kind: "error",
      error: AuthError,
      type: "config",
      code: 3,
      retry: false,
      command: "hark config init --force",
    },
  },
  {
    name: "99991662 (the app is not usable in the tenant) points at the console, exit 3",
    status: 400,
    text: json({ code: 99991662, msg: "app not in use" }),
    expect: { kind: "error", error: AuthError, type: "app_status", code: 3, retry: false },
  },
  {
    name: "99991661 (no token arrived) is final, not a refresh, exit 3",
    status: 401,
    text: json({ code: 99991661, msg: "Missing access token for authorization" }),
    expect: {
      kind: "error",
      error: AuthError,
      type: "auth",
      code: 3,
      retry: false,
      command: "hark auth login",
      suggestion: /proxy/,
    },
  },
  {
    name: "99991671 (a malformed token) is final, exit 3",
    status: 400,
    text: json({ code: 99991671, msg: "token format error" }),
    expect: { kind: "error", error: AuthError, type: "auth", code: 3, retry: false },
  },
  {
    name: "99991668 for the bot (a tenant token on a user-only API) is final: call it as the user",
    status: 401,
    text: json({ code: 99991668, msg: "Invalid access token for authorization." }),
    request: { ...GET, caller: { identity: "bot" } },
    expect: {
      kind: "error",
      error: AuthError,
      type: "auth",
      code: 3,
      retry: false,
      message: /^The app's tenant token was refused where Lark takes a user token/,
      suggestion: /without --as bot/,
      command: "hark auth login",
    },
  },
  {
    name: "99991668 for the user is still refreshed",
    status: 401,
    text: json({ code: 99991668, msg: "Invalid access token for authorization." }),
    request: { ...GET, caller: { identity: "user" } },
    expect: { kind: "token_rejected", error: AuthError },
  },
  {
    name: "HTTP 429 on a POST is retried after Retry-After",
    status: 429,
    text: "",
    request: POST,
    retryAfter: "3",
    expect: { kind: "error", type: "rate_limit", retry: true, retryAfterMs: 3000 },
  },
  {
    name: "code 99991400 is a rate limit",
    status: 400,
    text: json({ code: 99991400 }),
    expect: { kind: "error", type: "rate_limit", retry: true },
  },
  {
    name: "HTTP 429 is retried after Lark's x-ogw-ratelimit-reset seconds",
    status: 429,
    text: json({ code: 99991400, msg: "request trigger frequency limit" }),
    rateLimitReset: "52",
    expect: {
      kind: "error",
      type: "rate_limit",
      retry: true,
      retryAfterMs: 52_000,
      suggestion: /asked to wait 52 s/,
    },
  },
  {
    name: "code 99991400 under HTTP 400 (older APIs) waits x-ogw-ratelimit-reset too",
    status: 400,
    text: json({ code: 99991400, msg: "request trigger frequency limit" }),
    request: POST,
    rateLimitReset: "4",
    expect: { kind: "error", type: "rate_limit", retry: true, retryAfterMs: 4000 },
  },
  {
    name: "HTTP 503 on a GET is retried, and is exit 4 like code 500000",
    status: 503,
    text: "<html>",
    expect: { kind: "error", type: "server_error", code: 4, retry: true },
  },
  {
    name: "HTTP 503 on a POST is not",
    status: 503,
    text: "",
    request: POST,
    expect: { kind: "error", type: "server_error", retry: false },
  },
  {
    name: "HTTP 502 with another code is still the service being unavailable",
    status: 502,
    text: json({ code: 1234, msg: "upstream" }),
    expect: {
      kind: "error",
      type: "server_error",
      code: 4,
      retry: true,
      message: /^The service is unavailable: HTTP 502 on GET \/open-apis\/x; .*code 1234: upstream/,
    },
  },
  {
    name: "code 500000 is the spec's server error, exit 4",
    status: 200,
    text: json({ code: 500000 }),
    expect: { kind: "error", type: "server_error", code: 4, retry: true },
  },
  {
    name: "an unreadable 200 to a GET is retried",
    status: 200,
    text: "not json",
    expect: { kind: "error", type: "invalid_response", retry: true },
  },
  {
    name: "an unreadable 200 to a POST is not",
    status: 200,
    text: "not json",
    request: POST,
    expect: { kind: "error", type: "invalid_response", retry: false },
  },
  {
    name: "an unreadable 404 is no such API",
    status: 404,
    text: "404 page not found",
    expect: {
      kind: "error",
      type: "not_found",
      code: 1,
      retry: false,
      message: /^Not found: the service has no GET \/open-apis\/x \(HTTP 404\)$/,
      command: "hark config get apps",
    },
  },
  {
    name: "an ordinary API error is final",
    status: 400,
    text: json({ code: 190002, msg: "bad span" }),
    expect: { kind: "error", error: ApiError, type: "api", retry: false },
  },
  {
    name: "a JSON 404 without envelope",
    status: 404,
    text: json({ message: "x" }),
    expect: { kind: "error", error: ApiError, type: "not_found", retry: false },
  },
  {
    name: "a 404 with a service code is that code's error",
    status: 404,
    text: json({ code: 191000, msg: "calendar not found" }),
    expect: { kind: "error", error: ApiError, type: "api", retry: false },
  },
  {
    name: "code 999914 is the spec's mfa, exit 2",
    status: 400,
    text: json({ code: 999914 }),
    expect: { kind: "error", type: "mfa", code: 2, retry: false },
  },
  // Success is the number 0 alone: any other `code` is no success, its data never taken.
  ...["abc", true, [], null, "0", {}, false].map((code): Row => ({
    name: `code ${json(code)} under 200 is no success`,
    status: 200,
    text: json({ code, msg: "success", data: { message_id: "om_1" } }),
    expect: {
      kind: "error",
      type: "invalid_response",
      code: 1,
      retry: false,
      message: new RegExp(`cannot be read \\(HTTP 200\\): its "code" is not a number \\(`),
    },
  })),
  {
    name: "a code that is not a number under 400 is no API error to map",
    status: 400,
    text: json({ code: "99991663", msg: "token" }),
    expect: { kind: "error", type: "invalid_response", retry: false },
  },
  {
    name: "data nested 100,000 deep is unreadable, not a crash, and not retried",
    status: 200,
    text: `{"code":0,"data":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    expect: {
      kind: "error",
      type: "invalid_response",
      retry: false,
      message: /cannot be read \(HTTP 200\): it nests deeper than 512 levels/,
    },
  },
  {
    name: "data nested 500 deep is data",
    status: 200,
    text: `{"code":0,"data":${"[".repeat(500)}${"]".repeat(500)}}`,
    expect: { kind: "data", data: JSON.parse("[".repeat(500) + "]".repeat(500)) },
  },
];

for (const row of ROWS) {
  Deno.test(`classifyAnswer(): ${row.name}`, () => {
    const verdict = classifyAnswer(
      {
        status: row.status,
        text: row.text,
        retryAfter: row.retryAfter,
        rateLimitReset: row.rateLimitReset,
        requestId: "log-1",
      },
      row.request ?? GET,
      NOW,
    );
    assert.equal(verdict.kind, row.expect.kind);
    if (verdict.kind === "data") {
      assert.deepEqual(verdict.data, row.expect.data);
      return;
    }
    const { error } = verdict;
    if (row.expect.error) assert.ok(error instanceof row.expect.error, error.name);
    if (row.expect.type) assert.equal(error.type, row.expect.type);
    if (row.expect.code !== undefined) assert.equal(error.code, row.expect.code);
    if (row.expect.message) assert.match(error.message, row.expect.message);
    if (row.expect.command !== undefined) {
      assert.equal(error.recovery.command, row.expect.command);
    }
    if (row.expect.type === "permission" && error instanceof ApiError) {
      assert.doesNotMatch(error.recovery.command, /auth login/, "no sign-in grants it");
    }
    if (row.expect.suggestion) assert.match(error.recovery.suggestion, row.expect.suggestion);
    if (verdict.kind === "error") {
      assert.equal(verdict.retry, row.expect.retry);
      if (row.expect.retryAfterMs !== undefined) {
        assert.equal(verdict.retryAfterMs, row.expect.retryAfterMs);
      }
    }
    if (row.expect.scopes) assert.deepEqual((error as PermissionError).scopes, row.expect.scopes);
    assert.equal(error.requestId, "log-1", "every error carries the log id");
  });
}

Deno.test("classifyAnswer() points a bot's bare 403 at the developer console of its app", () => {
  const verdict = classifyAnswer(
    { status: 403, text: "", requestId: "log-403" },
    {
      ...GET,
      caller: { identity: "bot", appId: "cli_b", serviceOrigin: "https://open.feishu.cn" },
    },
    NOW,
  );
  assert.equal(verdict.kind, "error");
  const error = (verdict as { error: HarkError }).error;
  assert.ok(error instanceof PermissionError);
  assert.equal(
    error.recovery.url,
    "https://open.feishu.cn/page/scope-apply?clientID=cli_b&scopes=a%3Ab%3Ac",
  );
  assert.equal(error.recovery.command, "");
  assert.match(error.message, /\(log id log-403\)$/);
});

Deno.test("classifyAnswer() marks a failed write as one that may have been applied", () => {
  const failed = (request: typeof GET, status: number, text: string) =>
    (classifyAnswer({ status, text }, request, NOW) as { error: HarkError }).error;
  assert.equal(failed(POST, 502, "").mayHaveApplied, true);
  assert.equal(failed(POST, 500, json({ code: 500000, msg: "x" })).mayHaveApplied, true);
  assert.equal(failed(POST, 200, "<html>").mayHaveApplied, true);
  assert.equal(failed(POST, 200, json({ code: "0", data: {} })).mayHaveApplied, true);
  assert.equal(failed(GET, 502, "").mayHaveApplied, false);
  assert.equal(failed(POST, 400, json({ code: 1, msg: "bad" })).mayHaveApplied, false);
});
