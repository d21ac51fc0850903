/**
 * Hostile answers, end to end and in process.
 *
 * Issue 12, items 1 and 2: a hostile service on 127.0.0.1 (it signs the user in, then turns on
 * them) redirects credential-carrying requests to a second server and sends text made to drive
 * the terminal. No credential may reach the second server, no redirect may turn a POST into a
 * GET, and no control or bidi character from the network may reach stderr raw. (The fixes are
 * in `src/http/transport.ts` and `src/output/terminal_safe.ts`.)
 *
 * Issue 21, Medium 8: every shortcut of the registry, with every answer of the hostile-answer
 * corpus (`_hostile_answer_corpus.ts`: `data` null or of the wrong type, `null` where objects
 * are expected, wrong types, bad and huge times, nesting 100,000 deep, a `code` that is not 0),
 * ends without an internal error (exit 5), with one envelope or JSON output and no stack trace;
 * a write that may have been applied is retried with the key that was used; the sends and the
 * chat create that the service accepted exit 0 and say so. In process for the lot (a second or
 * so each), then the writes as real subprocesses against one hostile server.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, type HarkRun } from "../support/hark_env.ts";
import { runInProcess, sandboxConfig } from "../support/world.ts";
import { createTestContext } from "../support/test_context.ts";
import { runCli } from "../../src/cli/run_cli.ts";
import { renderError } from "../../src/cli/render_error.ts";
import { loadServices } from "../../src/shortcuts/services.ts";
import { type AnyShortcut, shortcutName } from "../../src/shortcuts/definition.ts";
import { ANSWER_CASES, type AnswerCase, DEEP, validCalls } from "./_hostile_answer_corpus.ts";
import { assertEnvelope, assertNoTrace } from "./_envelope.ts";
import { larkOk, startHostileServer } from "./_hostile_server.ts";

/** Retitles the terminal, clears the screen, paints red, and reverses the text after it. */
const ATTACK = "\x1b]0;pwned\x07\x1b[2J\x1b[31mFAKE BANNER\u202eemaNliveE\x9b";

function assertNoControls(text: string, what: string): void {
  // deno-lint-ignore no-control-regex
  const raw = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f]/.exec(text);
  assert.equal(raw, null, `${what} holds a raw control character: ${JSON.stringify(text)}`);
}

Deno.test("a hostile service's redirects and terminal escapes reach nothing", async () => {
  const thief = startHostileServer(() => larkOk({ stolen: true }));
  const service = startHostileServer((request, body) => {
    const path = new URL(request.url).pathname;
    const away = (status: number) =>
      new Response(null, { status, headers: { location: `${thief.url}/steal${path}` } });
    if (path === "/oauth/v1/device_authorization") {
      return Response.json({
        device_code: "dc-hostile-device-code-000",
        user_code: "EVIL-CODE",
        verification_uri: `${service.url}/verify`,
        expires_in: 60,
        interval: 1,
      });
    }
    if (path === "/open-apis/authen/v2/oauth/token") {
      const grant = new URLSearchParams(body).get("grant_type");
      if (grant === "refresh_token") return away(307);
      return Response.json({
        access_token: "u-hostile-access-token-0001",
        refresh_token: "ur-hostile-refresh-token-0001",
        expires_in: 60,
        refresh_token_expires_in: 3600,
        token_type: "Bearer",
        scope: "im:message.send_as_user offline_access",
      });
    }
    if (path === "/open-apis/authen/v1/user_info") {
      return larkOk({ open_id: "ou_hostile", name: `Mallory ${ATTACK}` });
    }
    if (path === "/open-apis/auth/v3/tenant_access_token/internal") return away(307);
    if (path === "/open-apis/im/v1/messages") return away(302);
    return Response.json({ code: 1234, msg: `Denied ${ATTACK}` }, { status: 400 });
  });
  // A deployment the user trusted, turned hostile: its answers are what is under test.
  const home = await createHarkEnv({
    HARK_TEST_APP_SECRET: "hostile-app-secret-0001",
    HARK_TRUSTED_ORIGINS: service.url,
  });
  try {
    await home.writeConfig(sandboxConfig({ appId: "cli_hostile", baseUrl: service.url }));
    const runs: HarkRun[] = [];
    // Sign in (the hostile service approves at once), in text mode: "Signed in as <name>". In
    // process: the device flow's 5 s before the first poll is not this test's subject.
    const login = await runInProcess(home, ["auth", "login", "--format", "table", "--wait", "1h"]);
    runs.push(login);
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, /Signed in as Mallory /);

    // The refresh's 307 would carry the refresh token and the app secret to the thief.
    const refresh = await home.run(["auth", "token", "--json"]);
    runs.push(refresh);
    assert.equal(refresh.code, 1, refresh.stderr);
    const refused = JSON.parse(refresh.stderr).error;
    assert.equal(refused.type, "redirect");
    assert.ok(refused.message.includes(`${thief.url}/steal`), refused.message);

    // The tenant token's 307 would carry the app secret.
    const bot = await home.run(["api", "GET", "/open-apis/im/v1/chats", "--as", "bot"]);
    runs.push(bot);
    assert.notEqual(bot.code, 0);

    // A 302 on a send must not become a GET that "succeeds".
    const send = await home.run(
      ["im", "+send", "--chat-id", "oc_1", "--text", "hi", "--json"],
      { env: { HARK_USER_ACCESS_TOKEN: "u-env-token-0000000001", HARK_BASE_URL: service.url } },
    );
    runs.push(send);
    assert.equal(send.code, 1, send.stderr);
    assert.equal(JSON.parse(send.stderr).error.type, "redirect");
    const posts = service.received.filter((r) => r.path.startsWith("/open-apis/im/v1/messages"));
    assert.deepEqual(posts.map((r) => r.method), ["POST"]);

    // The service's error text, shown as text on stderr.
    const denied = await home.run(["api", "GET", "/open-apis/anything"], {
      env: { HARK_USER_ACCESS_TOKEN: "u-env-token-0000000001", HARK_BASE_URL: service.url },
    });
    runs.push(denied);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /Denied \\x1b\]0;pwned\\x07/);

    assert.equal(thief.received.length, 0, thief.transcript());
    for (const run of runs) assertNoControls(run.stderr, "stderr");
  } finally {
    await home.cleanup();
    await service.close();
    await thief.close();
  }
});

/** An address where nothing listens: the in-process runs answer through their own fetch. */
const NOWHERE = "http://127.0.0.1:9";

/** One call of a shortcut met with one hostile answer. */
interface HostileRun {
  shortcut: AnyShortcut;
  args: string[];
  answer: AnswerCase;
}

/** What a run sent: each request's method and path. */
type Sent = { method: string; path: string }[];

function label(run: HostileRun): string {
  return `${shortcutName(run.shortcut)} (${run.args.join(" ")}) met with ${run.answer.name}`;
}

/**
 * The checks every run passes: no internal error, no stack trace, one complete envelope on a
 * failure and JSON on a success; a write that may have been applied names its key in the retry.
 */
function checkOutcome(
  run: HostileRun,
  ended: { code: number; stdout: string; stderr: string },
  sent: Sent,
): void {
  const where = label(run);
  assert.notEqual(ended.code, 5, `${where}: internal error: ${ended.stderr}`);
  assertNoTrace(ended.stderr, where);
  assertNoTrace(ended.stdout, where);
  const keyParam = run.shortcut.idempotencyKey;
  const wrote = sent.some((r) => r.method !== "GET" && r.method !== "HEAD");
  if (ended.code === 0) {
    assert.doesNotThrow(() => JSON.parse(ended.stdout), `${where}: stdout is not JSON`);
    for (const line of ended.stderr.split("\n").filter((l) => l.trim() !== "")) {
      assert.match(line, /^warning: /, `${where}: stderr holds more than warnings`);
    }
    return;
  }
  const lines = ended.stderr.split("\n").filter((l) => l.trim() !== "");
  const envelope = assertEnvelope(
    { ...ended, stderr: lines.filter((l) => !l.startsWith("warning: ")).join("\n") },
    where,
  );
  if (keyParam !== undefined && wrote && envelope.type !== "validation") {
    assert.match(
      envelope.recovery.command,
      new RegExp(` --${keyParam} \\S+`),
      `${where}: a write's retry must carry its key: ${JSON.stringify(envelope)}`,
    );
  }
}

Deno.test("every shortcut survives every hostile answer: no exit 5, a key in every write's retry", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "hark-hostile-answers-" });
  try {
    await Deno.mkdir(join(dir, "downloads"));
    const shortcuts = (await loadServices()).flatMap((g) => g.shortcuts);
    const runs: HostileRun[] = shortcuts.flatMap((shortcut) =>
      validCalls(shortcut, dir).flatMap((args) =>
        ANSWER_CASES.map((answer) => ({ shortcut, args, answer }))
      )
    );
    const covered = new Set(runs.map((r) => shortcutName(r.shortcut)));
    assert.deepEqual(
      shortcuts.map(shortcutName).filter((name) => !covered.has(name)),
      [],
      "every shortcut is called",
    );
    console.log(`hostile answers: ${runs.length} runs of ${covered.size} shortcuts`);
    const failures: string[] = [];
    for (const run of runs) {
      const sent: Sent = [];
      const ctx = createTestContext({
        env: {
          HARK_CONFIG: join(dir, "absent", "config.json"),
          HARK_USER_ACCESS_TOKEN: "u-hostile-answers-0001",
          HARK_BASE_URL: NOWHERE,
        },
        timeZone: "Europe/Berlin",
        fetch: (input, init) => {
          const url = new URL(input instanceof Request ? input.url : String(input));
          sent.push({ method: init?.method ?? "GET", path: url.pathname });
          return Promise.resolve(
            new Response(run.answer.body(), { headers: { "content-type": "application/json" } }),
          );
        },
      });
      try {
        const outcome = await runCli(ctx, [...run.args, "--json"]);
        const stderr = ctx.stderr.text() +
          (outcome.error ? renderError(outcome.error, { ...outcome, debug: false }) : "");
        checkOutcome(run, { code: outcome.code, stdout: ctx.stdout.text(), stderr }, sent);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    await t.step("in process", () => {
      assert.equal(
        failures.length,
        0,
        `${failures.length} of ${runs.length} failed:\n${failures.slice(0, 15).join("\n\n")}`,
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A write and how its answer's `data` is made from a time and a message, a chat or an event. */
interface WriteCase {
  args: string[];
  /** The `data` the service would answer with, its time `time`. */
  data(time: unknown): unknown;
  /** What the warning of an answer without its object says was done. */
  done: RegExp;
}

const WRITES: Record<string, WriteCase> = {
  send: {
    args: ["im", "+send", "--chat-id", "oc_hostile_1", "--text", "Deploy finished"],
    data: (time) => ({ message_id: "om_hostile_1", msg_type: "text", create_time: time }),
    done: /The message was sent \(the service accepted it\)/,
  },
  reply: {
    args: ["im", "+reply", "--message-id", "om_hostile_0", "--text", "On it"],
    data: (time) => ({ message_id: "om_hostile_2", msg_type: "text", create_time: time }),
    done: /The message was sent \(the service accepted it\)/,
  },
  "chat-create": {
    args: ["im", "+chat-create", "--name", "Release", "--members", "ou_hostile_1"],
    data: () => null,
    done: /The chat was created \(the service accepted it\)/,
  },
  create: {
    args: [
      "calendar",
      "+create",
      "--summary",
      "Review",
      "--start",
      "2026-11-25 14:00",
      "--end",
      "2026-11-25 15:00",
    ],
    data: (time) => ({
      event: {
        event_id: "ev_hostile_1",
        summary: "Review",
        start_time: { timestamp: time },
        end_time: { timestamp: "1795438800" },
      },
    }),
    done: /The event was created \(the service accepted it\)/,
  },
};

/** The hostile answers each write meets in the end-to-end test. */
const CASES_PER_WRITE = 6;

Deno.test("a write the service accepted never exits 5, end to end against a hostile server", async () => {
  // Each run sends its own idempotency key; the server answers by it.
  const answers = new Map<string, string>();
  const keyOf = (request: Request, body: string) => {
    const query = new URL(request.url).searchParams;
    const fromBody = /"uuid":"([^"]+)"/.exec(body)?.[1];
    return query.get("uuid") ?? query.get("idempotency_key") ?? fromBody ?? "";
  };
  const server = startHostileServer(
    (request, body) =>
      new Response(answers.get(keyOf(request, body)) ?? '{"code":1,"msg":"unknown"}', {
        headers: { "content-type": "application/json" },
      }),
    { maxRequests: 200 },
  );
  const home = await createHarkEnv({ TZ: "UTC" });
  const ok = (data: unknown) => JSON.stringify({ code: 0, msg: "success", data });
  try {
    const runs: { name: string; write: WriteCase; key: string; answer: string }[] = [];
    for (const [name, write] of Object.entries(WRITES)) {
      const cases: [string, string][] = [
        ["data null", ok(null)],
        ["a time of text", ok(write.data("abc"))],
        ["a time of 1e308", ok(write.data("1e308"))],
        ["a time beyond any calendar", ok(write.data("99999999999999999"))],
        ["a time of 99999999999999", ok(write.data("99999999999999"))],
        ["data nested 100,000 deep", `{"code":0,"data":${DEEP}}`],
      ];
      assert.equal(cases.length, CASES_PER_WRITE);
      for (const [what, answer] of cases) {
        const key = `hostile-${name}-${runs.length}`;
        answers.set(key, answer);
        runs.push({ name: `${name} met with ${what}`, write, key, answer });
      }
    }
    const failures: string[] = [];
    for (let i = 0; i < runs.length; i += 5) {
      await Promise.all(
        runs.slice(i, i + 5).map(async (run, j) => {
          const args = [...run.write.args, "--idempotency-key", run.key, "--json"];
          const env = {
            HARK_USER_ACCESS_TOKEN: "u-hostile-writes-0001",
            HARK_BASE_URL: server.url,
          };
          // The first answer of each write meets a real hark process (main.ts's exit codes);
          // the others the same command code in process.
          const ended = (i + j) % CASES_PER_WRITE === 0
            ? await home.run(args, { env, timeoutMs: 30_000 })
            : await runInProcess(home, args, { env });
          try {
            assert.notEqual(ended.code, 5, `${run.name}: internal error: ${ended.stderr}`);
            assertNoTrace(ended.stderr, run.name);
            const sent = server.received.filter((r) =>
              keyOf(new Request(`${server.url}${r.path}`), r.body) === run.key
            );
            assert.equal(sent.length, 1, `${run.name}: the write was sent ${sent.length} times`);
            if (run.answer.includes(DEEP)) {
              // Unreadable: it may have been applied; the retry carries the key that was sent.
              assert.equal(ended.code, 1, `${run.name}: ${ended.stderr}`);
              const error = assertEnvelope(ended, run.name);
              assert.equal(error.type, "invalid_response");
              assert.match(error.message, /nests deeper than 512 levels/);
              assert.ok(
                error.recovery.command.endsWith(` --idempotency-key ${run.key}`),
                `${run.name}: ${error.recovery.command}`,
              );
              return;
            }
            // Accepted: exit 0, the output is JSON, a warning says what could not be read.
            assert.equal(ended.code, 0, `${run.name}: ${ended.stderr}`);
            JSON.parse(ended.stdout);
            if (run.answer === ok(null)) {
              assert.match(ended.stderr, run.write.done, run.name);
              if (run.write !== WRITES.create) {
                assert.match(ended.stderr, new RegExp(`--idempotency-key ${run.key}`), run.name);
              }
            } else if (run.answer.includes('"99999999999999"') && run.write !== WRITES.create) {
              // Milliseconds (a message's time): the year 5138, a time a calendar can show.
              assert.match(ended.stdout, /"create_time":"5138-11-16T09:46:39\+00:00"/, run.name);
            } else {
              assert.match(ended.stderr, /^warning: .* that is not a time \(/m, run.name);
              assert.doesNotMatch(ended.stdout, /1e308|99999999999999|"abc"/, run.name);
            }
          } catch (error) {
            failures.push(error instanceof Error ? error.message : String(error));
          }
        }),
      );
    }
    assert.deepEqual(failures, [], failures.join("\n\n"));
  } finally {
    await home.cleanup();
    await server.close();
  }
});
