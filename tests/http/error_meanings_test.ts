/**
 * Issue 11, "Errors that tell the truth", end to end against the sandbox (which answers as Lark
 * does): who lacks a scope decides the recovery (the developer console for the app and for the
 * bot, a sign-in with ONE scope for the user), 99991676 and 230027 are permission errors, SPEC's
 * map for 230001/230002/999914/500000 holds, and every message carries the service's own `msg`
 * and the request's log id.
 */

import assert from "node:assert/strict";
import { CHAT_WITHOUT_BOT, type FaultSpec, type Sandbox } from "../../sandbox/mod.ts";
import { KNOWN_SCOPES } from "../../sandbox/oauth/lark_scopes.ts";
import type { HarkEnv, HarkRun } from "../support/hark_env.ts";
import { ALL_TEST_SCOPES, sandboxUserToken } from "../support/sandbox_token.ts";
import { runInProcess, startWorld } from "../support/world.ts";

interface World {
  sb: Sandbox;
  home: HarkEnv;
  run(args: string[], scopes?: string[]): Promise<HarkRun>;
  fault(spec: FaultSpec): Promise<void>;
  close(): Promise<void>;
}

/**
 * A sandbox whose app has every scope but `disabled`, and a home configured for it. `run` runs
 * the command code in process (runInProcess), or as a real hark process with `subprocess`: the
 * rules need no Deno start-up per run, one test keeps the wiring.
 */
async function world(disabled: string[] = [], { subprocess = false } = {}): Promise<World> {
  const world = await startWorld({
    sandbox: { appScopes: [...KNOWN_SCOPES].filter((s) => !disabled.includes(s)) },
    env: (sb) => ({ HARK_BASE_URL: sb.baseUrl, TZ: "UTC" }),
  });
  const { sb, home } = world;
  const tokens = new Map<string, string>();
  return {
    sb,
    home,
    async run(args, scopes = ALL_TEST_SCOPES) {
      const key = scopes.join(" ");
      if (!tokens.has(key)) tokens.set(key, (await sandboxUserToken(sb, { scopes })).accessToken);
      const env = { HARK_USER_ACCESS_TOKEN: tokens.get(key)! };
      return subprocess
        ? await home.run([...args, "--json"], { env })
        : await runInProcess(home, [...args, "--json"], { env });
    },
    async fault(spec) {
      await fetch(`${sb.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
        r.body?.cancel()
      );
      const response = await fetch(`${sb.baseUrl}/sandbox/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify([spec]),
      });
      await response.body?.cancel();
    },
    close: () => world.close(),
  };
}

/** The paths of the requests the sandbox received, read without asserting their type. */
async function loggedPaths(w: World): Promise<string[]> {
  const log: unknown = await (await fetch(`${w.sb.baseUrl}/sandbox/requests`)).json();
  assert.ok(Array.isArray(log));
  return log.flatMap((r) =>
    typeof r === "object" && r !== null && "path" in r && typeof r.path === "string" ? [r.path] : []
  );
}

function envelope(run: HarkRun) {
  return JSON.parse(run.stderr.trim().split("\n").at(-1)!).error;
}

const LOG_ID = /\(log id \d{14}[0-9A-F]{18}\)/;

Deno.test("99991672 (the app lacks the scope) points at the console page of the profile's app", async () => {
  const w = await world([
    "calendar:calendar:readonly",
    "calendar:calendar",
    "calendar:calendar.event:read",
  ], { subprocess: true });
  try {
    const run = await w.run(["calendar", "+agenda"]);
    assert.equal(run.code, 1, run.stderr);
    const error = envelope(run);
    assert.equal(error.type, "permission");
    assert.match(
      error.message,
      /^The app has not enabled the scope this call needs \(code 99991672\): /,
    );
    assert.match(error.message, /has enabled none of them/, "the service's own msg");
    assert.match(error.message, LOG_ID);
    assert.equal(
      error.recovery.url,
      `${w.sb.baseUrl}/page/scope-apply?clientID=${w.sb.appId}&scopes=calendar%3Acalendar.event%3Aread`,
    );
    assert.ok(error.recovery.suggestion.includes(error.recovery.url));
    // The user then grants the one scope the shortcut declares.
    assert.equal(error.recovery.command, "hark auth login --scope calendar:calendar.event:read");
    assert.equal(error.request_id, LOG_ID.exec(error.message)![0].slice(8, -1));
  } finally {
    await w.close();
  }
});

Deno.test("any permission error of the bot points at the console, never at a sign-in", async () => {
  const w = await world(["im:message:send_as_bot", "im:message"]);
  try {
    const run = await w.run([
      "im",
      "+send",
      "--as",
      "bot",
      "--chat-id",
      w.sb.chats[0].chat_id,
      "--text",
      "hi",
    ]);
    assert.equal(run.code, 1, run.stderr);
    const error = envelope(run);
    assert.equal(error.type, "permission");
    assert.equal(
      error.recovery.url,
      `${w.sb.baseUrl}/page/scope-apply?clientID=${w.sb.appId}&scopes=im%3Amessage%3Asend_as_bot`,
    );
    assert.doesNotMatch(error.recovery.command, /auth login/);
    assert.doesNotMatch(error.recovery.suggestion, /sign in/i);
  } finally {
    await w.close();
  }
});

Deno.test("99991679 (the user has not granted it) asks for ONE of the alternatives", async () => {
  const w = await world();
  try {
    const run = await w.run(
      ["contact", "+get-user", "--user-id", w.sb.users[2].open_id],
      ["calendar:calendar.event:read"],
    );
    assert.equal(run.code, 1, run.stderr);
    const error = envelope(run);
    assert.match(
      error.message,
      /^The user has not granted the scope this call needs \(code 99991679\): Unauthorized/,
    );
    assert.match(error.message, LOG_ID);
    // Lark's user get doc lists four API permissions, any one of which opens it: the one the
    // shortcut declares is asked for, not all four.
    assert.equal(error.recovery.command, "hark auth login --scope contact:contact.base:readonly");
    assert.match(
      error.recovery.suggestion,
      /any one of "contact:contact\.base:readonly", "contact:contact:access_as_app"/,
    );
    assert.equal(error.recovery.url, undefined);
  } finally {
    await w.close();
  }
});

Deno.test("99991679 naming scopes a call needs together asks for all of them", async () => {
  const w = await world();
  try {
    // Lark's message create doc: as a user, im:message.send_as_user and im:message both.
    const run = await w.run(
      ["im", "+send", "--chat-id", w.sb.chats[0].chat_id, "--text", "hi"],
      ["calendar:calendar.event:read"],
    );
    assert.equal(run.code, 1, run.stderr);
    const error = envelope(run);
    assert.equal(
      error.recovery.command,
      "hark auth login --scope im:message.send_as_user --scope im:message",
    );
    assert.doesNotMatch(error.recovery.suggestion, /any one of/);
    // Run as printed, it is enough.
    const again = await w.run(
      ["im", "+send", "--chat-id", w.sb.chats[0].chat_id, "--text", "hi"],
      ["calendar:calendar.event:read", "im:message.send_as_user", "im:message"],
    );
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await w.close();
  }
});

Deno.test("99991676 and 230027 are permission errors with the service's msg and log id", async () => {
  const w = await world();
  try {
    for (const code of [99991676, 230027]) {
      await w.fault({
        route: "GET /open-apis/search/v1/user",
        kind: "status",
        status: 400,
        code,
        msg: `denied ${code}`,
      });
      const run = await w.run(["contact", "+search-user", "--query", "a"]);
      assert.equal(run.code, 1, run.stderr);
      const error = envelope(run);
      assert.equal(error.type, "permission", String(code));
      assert.match(error.message, new RegExp(`\\(code ${code}\\): denied ${code}`));
      assert.match(error.message, LOG_ID);
      assert.equal(error.recovery.command, "hark auth login --scope contact:user:search");
    }
  } finally {
    await w.close();
  }
});

Deno.test("the app's credential and status codes, and the token format codes, say what fixes them", async () => {
  const w = await world();
  try {
    const cases: [number, number, string, RegExp, string][] = [
      [99991543, 400, "config", /^The app id or app secret is wrong/, "hark config init --force"],
      [99991662, 400, "app_status", /^The app cannot be used in this tenant/, ""],
      [99991673, 400, "app_status", /^The app cannot be used in this tenant/, ""],
      [99991661, 401, "auth", /^No access token was sent/, "hark auth login"],
      [99991671, 400, "auth", /^The access token is malformed/, "hark auth login"],
    ];
    for (const [code, status, type, message, command] of cases) {
      await w.fault({
        route: "GET /open-apis/search/v1/user",
        kind: "status",
        status,
        code,
        msg: `Lark's words for ${code}`,
      });
      await fetch(`${w.sb.baseUrl}/sandbox/requests`, { method: "DELETE" }).then((r) =>
        r.body?.cancel()
      );
      const run = await w.run(["contact", "+search-user", "--query", "a"]);
      assert.equal(run.code, 3, `${code}: ${run.stderr}`);
      const error = envelope(run);
      assert.equal(error.type, type, String(code));
      assert.match(error.message, message, `${code}: ${error.message}`);
      assert.ok(error.message.includes(`Lark's words for ${code}`), error.message);
      assert.match(error.message, LOG_ID);
      if (command !== "") assert.equal(error.recovery.command, command, String(code));
      if (type === "app_status") {
        assert.equal(error.recovery.url, `${w.sb.baseUrl}/app/${w.sb.appId}`);
        assert.match(error.recovery.suggestion, /app's status in the developer console/);
        assert.doesNotMatch(error.recovery.command, /auth login/);
      }
      // Final: no refresh and no retry changes them.
      const calls = (await loggedPaths(w)).filter((p) => p.startsWith("/open-apis/search/"))
        .length;
      assert.equal(calls, 1, `${code} was sent ${calls} times`);
    }
  } finally {
    await w.close();
  }
});

Deno.test("the bot on a user-only API gets Lark's 99991668 and is told to call it as the user", async () => {
  const w = await world();
  try {
    const run = await w.home.run([
      "api",
      "GET",
      "/open-apis/search/v1/user",
      "--params",
      '{"query":"a"}',
      "--as",
      "bot",
      "--json",
    ]);
    assert.equal(run.code, 3, run.stderr);
    const error = envelope(run);
    assert.equal(error.type, "auth");
    assert.match(
      error.message,
      /^The app's tenant token was refused where Lark takes a user token/,
    );
    assert.match(error.message, /\(code 99991668\)/);
    assert.match(error.recovery.suggestion, /without --as bot/);
    // No refresh and no retry: a new tenant token is refused the same way.
    const paths = await loggedPaths(w);
    assert.equal(paths.filter((p) => p.startsWith("/open-apis/search/")).length, 1);
    assert.equal(paths.filter((p) => p.includes("tenant_access_token")).length, 1);
  } finally {
    await w.close();
  }
});

Deno.test("SPEC's map holds for 230001, 230002, 999914, 500000, with Lark's msg and the log id", async () => {
  const w = await world();
  try {
    // 230002 from the sandbox itself: the bot is not in the chat (IM's meaning of the code).
    const notInChat = await w.run([
      "im",
      "+send",
      "--as",
      "bot",
      "--chat-id",
      w.sb.chats[CHAT_WITHOUT_BOT].chat_id,
      "--text",
      "hi",
    ]);
    assert.equal(notInChat.code, 2, notInChat.stderr);
    const denied = envelope(notInChat);
    assert.equal(denied.type, "permission");
    assert.match(denied.message, /\(code 230002\): Bot\/User can NOT be out of the chat\./);
    assert.match(denied.message, LOG_ID);
    // SPEC's exit code and type stay; IM's meaning (not in the chat) is in the message, and the
    // recovery is the way in, not a sign-in.
    assert.equal(denied.recovery.command, "hark im +chats --as bot");
    assert.match(denied.message, /not a member of chat "oc_/);
    assert.match(denied.recovery.suggestion, /Add the app's bot to the chat/);

    // Elsewhere 230002 is the SPEC's "insufficient permission": sign in with the scope.
    await w.fault({
      route: "GET /open-apis/search/v1/user",
      kind: "status",
      status: 400,
      code: 230002,
      msg: "insufficient permission",
      times: 1,
    });
    const insufficient = await w.run(["contact", "+search-user", "--query", "a"]);
    assert.equal(insufficient.code, 2, insufficient.stderr);
    const scoped = envelope(insufficient);
    assert.equal(scoped.type, "permission");
    assert.match(scoped.recovery.command, /^hark auth login --scope contact:user:search\b/);

    const cases: [number, number, number, string][] = [
      [230001, 400, 2, "auth"],
      [999914, 400, 2, "mfa"],
      [500000, 500, 4, "server_error"],
    ];
    for (const [code, status, exit, type] of cases) {
      const msg = `Lark's own words for ${code}`;
      await w.fault({ route: "GET /open-apis/search/v1/user", kind: "status", status, code, msg });
      const run = await w.run(["contact", "+search-user", "--query", "a"]);
      assert.equal(run.code, exit, `${code}: ${run.stderr}`);
      const error = envelope(run);
      assert.equal(error.type, type, String(code));
      assert.ok(error.message.includes(msg), error.message);
      assert.match(error.message, LOG_ID);
      assert.ok(error.request_id, String(code));
    }
  } finally {
    await w.close();
  }
});

Deno.test("IM's 230001 leads with Lark's meaning (an invalid parameter), keeping SPEC's map", async () => {
  const w = await world();
  try {
    // The sandbox answers as Lark does: 230001, "ext=invalid receive_id".
    const run = await w.run(["im", "+send", "--chat-id", "oc_no_such_chat", "--text", "hi"]);
    assert.equal(run.code, 2, run.stderr);
    const error = envelope(run);
    assert.equal(error.type, "auth");
    assert.match(
      error.message,
      /^Invalid request parameter \(code 230001\): .*ext=invalid receive_id/,
    );
    assert.doesNotMatch(error.message, /Token invalid/);
    assert.match(error.message, LOG_ID);
    assert.match(error.recovery.suggestion, /^In IM, code 230001 means a parameter .* invalid/);
    assert.match(error.recovery.suggestion, /check --chat-id "oc_no_such_chat"/);
    assert.equal(error.recovery.command, "hark im +chats");

    // Outside IM, SPEC's meaning stays as it is.
    await w.fault({
      route: "GET /open-apis/search/v1/user",
      kind: "status",
      status: 400,
      code: 230001,
      msg: "token expired",
      times: 1,
    });
    const search = envelope(await w.run(["contact", "+search-user", "--query", "a"]));
    assert.match(search.message, /^Token invalid or expired \(code 230001\): token expired/);

    // A malformed --email never reaches the service.
    await fetch(`${w.sb.baseUrl}/sandbox/requests`, { method: "DELETE" }).then((r) =>
      r.body?.cancel()
    );
    const email = await w.run(["im", "+send", "--email", "ana@example", "--text", "hi"]);
    assert.equal(email.code, 2, email.stderr);
    assert.match(envelope(email).message, /for --email: expected an email address/);
    const log = await (await fetch(`${w.sb.baseUrl}/sandbox/requests`)).json() as {
      path: string;
    }[];
    assert.deepEqual(log.filter((r) => r.path.startsWith("/open-apis/im/")), []);
  } finally {
    await w.close();
  }
});
