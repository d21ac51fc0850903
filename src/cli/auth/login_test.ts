import assert from "node:assert/strict";
import { join } from "node:path";
import { PendingError, ValidationError } from "../../errors/mod.ts";
import { MemoryKeychain } from "../../keychain/memory_keychain.ts";
import {
  type ExpectedRequest,
  jsonResponse,
  type TestContext,
  type TestContextOptions,
  withFetchStub,
} from "../../../tests/support/test_context.ts";
import { type CliOutcome, runCli } from "../run_cli.ts";

// `login` on an in-process command line, a strict fetch stub and the fake clock; the rules of
// its steps are tested beside them (login_options_test.ts, wait_for_approval_test.ts).

const DEVICE_URL = "https://accounts.larksuite.com/oauth/v1/device_authorization";
const TOKEN_URL = "https://open.larksuite.com/open-apis/authen/v2/oauth/token";
const USER_URL = "https://open.larksuite.com/open-apis/authen/v1/user_info";
const SCOPE = "calendar:calendar:readonly";

/** A login world: a config with one app, the captured context and when each token poll came. */
interface LoginWorld {
  ctx: TestContext;
  outcome: CliOutcome;
  /** The config file after the run. */
  config: Record<string, unknown>;
  /** Milliseconds from the start of the run to each token request. */
  polls: number[];
}

/** The device authorization answer, with the server's timing. */
function authorized(timing: { interval?: number; expires_in?: number } = {}): ExpectedRequest {
  return {
    method: "POST",
    url: DEVICE_URL,
    respond: () =>
      jsonResponse({
        device_code: "dc-1",
        user_code: "ABCD-EFGH",
        verification_uri: "https://accounts.larksuite.com/device",
        expires_in: 600,
        interval: 5,
        ...timing,
      }),
  };
}

/** One token poll, answered with an OAuth error, a failure, or tokens (`granted` scopes). */
function poll(answer: string | number | { granted: string }): ExpectedRequest {
  return {
    method: "POST",
    url: TOKEN_URL,
    respond: () =>
      typeof answer === "number"
        ? new Response("unavailable", { status: answer })
        : typeof answer === "string"
        ? jsonResponse({ error: answer }, 400)
        : jsonResponse({
          access_token: "u-1",
          refresh_token: "r-1",
          expires_in: 7200,
          refresh_token_expires_in: 604800,
          scope: answer.granted,
        }),
  };
}

const USER_INFO: ExpectedRequest = {
  method: "GET",
  url: USER_URL,
  respond: () => jsonResponse({ code: 0, data: { open_id: "ou_ada", name: "Ada" } }),
};

/**
 * Runs `hark auth login …argv` in-process against `expected`, with the config of one app;
 * a request not expected, or an expected one never made, fails the test.
 */
async function runLoginWith(
  argv: string[],
  expected: ExpectedRequest[],
  options: Omit<TestContextOptions, "fetch"> = {},
): Promise<LoginWorld> {
  const dir = await Deno.makeTempDir({ prefix: "hark-login-test-" });
  try {
    const configPath = join(dir, "hark", "config.json");
    await Deno.mkdir(join(dir, "hark"), { recursive: true });
    await Deno.writeTextFile(
      configPath,
      JSON.stringify({
        apps: {
          default: {
            app_id: "cli_app",
            app_secret: "@plain:s3cret",
            base_url: "https://open.larksuite.com",
          },
        },
      }),
    );
    const polls: number[] = [];
    let clock = () => 0;
    const timed = expected.map((e) =>
      e.url === TOKEN_URL
        ? { ...e, respond: (r: Request) => (polls.push(clock()), e.respond(r)) }
        : e
    );
    return await withFetchStub(timed, async (ctx) => {
      const started = ctx.now();
      clock = () => ctx.now() - started;
      const outcome = await runCli(ctx, ["auth", "login", ...argv]);
      const config = JSON.parse(await Deno.readTextFile(configPath));
      return { ctx, outcome, config, polls };
    }, { ...options, env: { XDG_CONFIG_HOME: dir, ...options.env } });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The keychain entries' paths after a run. */
function stored(world: LoginWorld): string[] {
  return [...world.ctx.keychain.entries.keys()].sort();
}

Deno.test("login --dry-run previews the device authorization, or the token poll, and calls nothing", async () => {
  const start = await runLoginWith(["--dry-run", "--scope", SCOPE], []);
  assert.equal(start.outcome.code, 0, start.outcome.error?.message);
  assert.deepEqual(JSON.parse(start.ctx.stdout.text()), {
    dry_run: true,
    action: "auth login",
    profile: "default",
    scopes: [SCOPE, "offline_access"],
    device_authorization_url: DEVICE_URL,
    wait: true,
  });
  const finish = await runLoginWith(["--dry-run", "--device-code", "dc-1"], []);
  assert.equal(JSON.parse(finish.ctx.stdout.text()).url, TOKEN_URL);
  assert.deepEqual(stored(start).concat(stored(finish)), []);
});

Deno.test("login --no-wait shows the code and the command that finishes it, and remembers it", async () => {
  const text = await runLoginWith(["--no-wait", "--scope", SCOPE], [authorized()], {
    stdoutIsTerminal: true,
  });
  assert.equal(text.outcome.code, 0, text.outcome.error?.message);
  assert.match(text.ctx.stdout.text(), /enter the code: ABCD-EFGH\n/);
  assert.ok(text.ctx.stdout.text().endsWith("\n  hark auth login --device-code dc-1\n"));
  assert.deepEqual(stored(text), ["hark/default/pending_login"]);
  assert.deepEqual(text.polls, []);

  const json = await runLoginWith(["--no-wait", "--json", "--scope", SCOPE], [authorized()]);
  assert.deepEqual(JSON.parse(json.ctx.stdout.text()), {
    device_code: "dc-1",
    user_code: "ABCD-EFGH",
    verification_uri: "https://accounts.larksuite.com/device",
    verification_uri_complete: null,
    expires_in: 600,
    interval: 5,
  });
  assert.match(json.ctx.stderr.text(), /--device-code <device_code>/);
});

Deno.test("login without a terminal, or in CI, acts as --no-wait --json and ends pending with exit 75", async () => {
  for (const setting of [{}, { env: { CI: "true" }, stdinIsTerminal: true }]) {
    const world = await runLoginWith(["--scope", SCOPE], [authorized()], setting);
    assert.equal(world.outcome.code, 75, world.outcome.error?.message);
    assert.equal(world.outcome.error?.type, "pending");
    assert.equal(world.outcome.error?.recovery.command, "hark auth login --device-code dc-1");
    assert.match(world.outcome.error?.recovery.suggestion ?? "", /--wait/);
    // The device data as JSON on stdout, even though --json was not given; nothing waited.
    assert.equal(JSON.parse(world.ctx.stdout.text()).user_code, "ABCD-EFGH");
    assert.deepEqual(world.polls, []);
    assert.deepEqual(stored(world), ["hark/default/pending_login"]);
  }
});

Deno.test("login rejects a bad --wait and --no-wait with --device-code before any request", async () => {
  const bad = await runLoginWith(["--wait", "soon"], []);
  assert.equal(bad.outcome.code, 2);
  assert.ok(bad.outcome.error instanceof ValidationError);
  assert.equal(bad.outcome.error.param, "--wait");
  const both = await runLoginWith(["--no-wait", "--device-code", "dc-1"], []);
  assert.equal(both.outcome.code, 2);
  assert.match(both.outcome.error!.message, /Conflicting flags: --no-wait and --device-code/);
});

Deno.test("login polls every 5 s, adds 5 s on slow_down, then stores the tokens and reports the user", async () => {
  const world = await runLoginWith(["--json", "--scope", SCOPE], [
    authorized(),
    poll("authorization_pending"),
    poll("slow_down"),
    poll({ granted: `${SCOPE} offline_access` }),
    USER_INFO,
  ], { stdinIsTerminal: true });
  assert.equal(world.outcome.code, 0, world.outcome.error?.message);
  assert.deepEqual(world.polls, [5_000, 10_000, 20_000]);
  const result = JSON.parse(world.ctx.stdout.text());
  assert.deepEqual(result.user, { open_id: "ou_ada", name: "Ada" });
  assert.deepEqual(result.not_granted, []);
  assert.match(world.ctx.stderr.text(), /enter the code: ABCD-EFGH\nWaiting for approval/);
  // The token record is stored, and nothing pending is left behind.
  assert.deepEqual(stored(world), ["hark/default/user_token"]);
  const users = world.config.users as Record<string, Record<string, unknown>>;
  assert.equal(users.default.access_token, "@keychain:hark/default/user_token");
  assert.equal(users.default.open_id, "ou_ada");
});

Deno.test("login caps a huge server interval at 60 s and doubles it after a transient failure", async () => {
  const world = await runLoginWith(["--scope", SCOPE], [
    authorized({ interval: 99_999 }),
    poll(503),
    poll({ granted: SCOPE }),
    USER_INFO,
  ], { stdinIsTerminal: true });
  assert.equal(world.outcome.code, 0, world.outcome.error?.message);
  assert.deepEqual(world.polls, [60_000, 120_000]);
  const backOff = await runLoginWith(["--scope", SCOPE], [
    authorized(),
    poll(503),
    poll({ granted: SCOPE }),
    USER_INFO,
  ], { stdinIsTerminal: true, stdoutIsTerminal: true });
  assert.deepEqual(backOff.polls, [5_000, 15_000]);
  assert.match(backOff.ctx.stderr.text(), /Signed in as Ada to profile "default"/);
});

Deno.test("login stops with exit 3 when the code expires, without waiting past it", async () => {
  const world = await runLoginWith(["--scope", SCOPE], [
    authorized({ expires_in: 7 }),
    poll("authorization_pending"),
  ], { stdinIsTerminal: true });
  assert.equal(world.outcome.code, 3);
  assert.match(world.outcome.error!.message, /Sign-in code expired before it was approved/);
  assert.deepEqual(world.polls, [5_000]);
  // The run ends at the code's expiry, 7 s after it started, not a whole interval later.
  assert.equal(world.ctx.now(), Date.UTC(2026, 10, 21, 9, 0, 7));
  assert.deepEqual(stored(world), []);
  assert.equal(world.config.users, undefined);
});

Deno.test("login stops with exit 3 when the request is denied, storing nothing", async () => {
  const world = await runLoginWith(["--scope", SCOPE], [
    authorized(),
    poll("authorization_pending"),
    poll("access_denied"),
  ], { stdinIsTerminal: true });
  assert.equal(world.outcome.code, 3);
  assert.match(world.outcome.error!.message, /denied/);
  assert.deepEqual(stored(world), []);
  assert.equal(world.config.users, undefined);
});

Deno.test("login --device-code without a terminal polls once, then ends pending with exit 75", async () => {
  const world = await runLoginWith(["--device-code", "dc-9", "--json"], [
    poll("authorization_pending"),
  ]);
  assert.equal(world.outcome.code, 75);
  assert.ok(world.outcome.error instanceof PendingError);
  assert.match(world.outcome.error.recovery.command ?? "", /--device-code dc-9$/);
  assert.deepEqual(world.polls, [5_000]);
  assert.deepEqual(JSON.parse(world.ctx.stdout.text()), {
    state: "pending",
    profile: "default",
    device_code: "dc-9",
    expires_at: null,
  });
});

Deno.test("login --device-code polls as --no-wait's server asked, then forgets the pending sign-in", async () => {
  const keychain = new MemoryKeychain();
  const started = await runLoginWith(
    ["--no-wait", "--scope", SCOPE],
    [authorized({ interval: 8 })],
    { keychain },
  );
  assert.equal(started.outcome.code, 0, started.outcome.error?.message);
  const finished = await runLoginWith(["--device-code", "dc-1"], [
    poll({ granted: SCOPE }),
    USER_INFO,
  ], { keychain, stdinIsTerminal: true });
  assert.equal(finished.outcome.code, 0, finished.outcome.error?.message);
  assert.deepEqual(finished.polls, [8_000]);
  assert.deepEqual(stored(finished), ["hark/default/user_token"]);
});

Deno.test("login --wait 12s polls within the bound, then ends pending and keeps the sign-in", async () => {
  const world = await runLoginWith(["--wait", "12s", "--scope", SCOPE], [
    authorized(),
    poll("authorization_pending"),
    poll("authorization_pending"),
    poll("authorization_pending"),
  ]);
  assert.equal(world.outcome.code, 75);
  assert.deepEqual(world.polls, [5_000, 10_000, 15_000]);
  assert.match(world.outcome.error!.recovery.command ?? "", /--device-code dc-1$/);
  assert.deepEqual(stored(world), ["hark/default/pending_login"]);
});

Deno.test("login warns about scopes not granted and the shortcuts they break", async () => {
  const world = await runLoginWith(["--scope", `${SCOPE} calendar:calendar`], [
    authorized(),
    poll({ granted: SCOPE }),
    USER_INFO,
  ], { stdinIsTerminal: true });
  assert.equal(world.outcome.code, 0, world.outcome.error?.message);
  assert.match(world.ctx.stderr.text(), /warning: this scope was not granted: calendar:calendar/);
});

Deno.test("login still signs in when the user's details cannot be read, with a warning", async () => {
  const world = await runLoginWith(["--scope", SCOPE], [
    authorized(),
    poll({ granted: SCOPE }),
    { method: "GET", url: USER_URL, respond: () => jsonResponse({ code: 1, msg: "no" }, 400) },
  ], { stdinIsTerminal: true, stdoutIsTerminal: true });
  assert.equal(world.outcome.code, 0, world.outcome.error?.message);
  assert.match(world.ctx.stderr.text(), /warning: Signed in, but cannot read the user's details/);
  assert.match(world.ctx.stderr.text(), /Signed in as the user to profile "default"/);
});
