/**
 * Every kind of error hark produces, produced in-process through `runCli` (against an
 * in-process sandbox where the service is involved), with the recovery command a user would see
 * checked twice: it runs as printed (`whyNotRunnable`, the real parser) and it is the command
 * that addresses this error. A last test checks that every error type the source can build was
 * produced here, or says why it cannot be in-process.
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { rerunCommand, runCli } from "../../src/cli/run_cli.ts";
import { type HarkError, InternalError, toEnvelope } from "../../src/errors/mod.ts";
import { MemoryKeychain } from "../../src/keychain/memory_keychain.ts";
import type { FaultSpec, Sandbox } from "../../sandbox/mod.ts";
import { startSandbox } from "../../sandbox/mod.ts";
import { createTestContext, type TestContext } from "../support/test_context.ts";
import { REPO_ROOT } from "../support/hark_env.ts";
import { APP_SECRET_VAR, sandboxConfig } from "../support/world.ts";
import { sandboxUserToken } from "../support/sandbox_token.ts";
import { shellWords, sourceLiterals, whyNotRunnable } from "./_recovery_check.ts";

/** The world a scenario runs in. */
interface World {
  sb: Sandbox;
  dir: string;
  /** A token with every scope the shortcuts use. */
  token: string;
  /** A token granted only `calendar:calendar:read`. */
  calendarOnlyToken: string;
}

/** One way to make an error, and what its recovery command must be. */
interface Scenario {
  name: string;
  argv: string[];
  /** The config file; default one app pointing at the sandbox. `null`: no file. */
  config?: (world: World) => unknown;
  /** The raw text of the config file, instead of `config`. */
  configText?: string;
  /** Extra environment; `HARK_CONFIG` and the app secret's variable are always set. */
  env?: (world: World) => Record<string, string>;
  /** Run before: faults, keychain entries, earlier commands. */
  setup?: (world: World, ctx: TestContext) => Promise<void>;
  /** Abort the context before running (Ctrl-C). */
  interrupted?: boolean;
  /** The error's type and exit code. */
  type: string;
  code: number;
  /** The recovery command, exactly, or a test of it. */
  command: string | ((command: string, ctx: TestContext) => boolean);
  /** Why the expected command is not what hark shows yet, and whose file fixes it. */
  owner?: string;
}

const SECRET_VAR = APP_SECRET_VAR;

function appConfig(world: World, app: Record<string, unknown> = {}): unknown {
  const config = sandboxConfig(world.sb);
  return { apps: { default: { ...config.apps.default, ...app } } };
}

const SEARCH = ["contact", "+search-user", "--query", "a"];

async function fault(world: World, spec: FaultSpec): Promise<void> {
  const response = await fetch(`${world.sb.baseUrl}/sandbox/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(spec),
  });
  assert.equal(response.status, 200, await response.text());
}

async function signedIn(
  ctx: TestContext,
  scopes: string[],
  refreshExpired = false,
  profile = "default",
) {
  const now = ctx.now();
  await ctx.keychain.set(
    `hark/walk/${profile}/user_token`,
    JSON.stringify({
      access_token: "u-stored",
      refresh_token: "r-stored",
      expires_at: refreshExpired ? now - 60_000 : now + 3_600_000,
      refresh_expires_at: refreshExpired ? now - 1_000 : now + 86_400_000,
      scopes,
      token_type: "Bearer",
    }),
  );
}

function signedInConfig(world: World): unknown {
  // At a path of its own, the config reads only the entries of its namespace.
  const config = appConfig(world) as Record<string, unknown>;
  config.keychain_namespace = "walk";
  config.users = {
    default: { access_token: "@keychain:hark/walk/default/user_token", user_type: "user" },
  };
  return config;
}

/** Two profiles at the sandbox, `default` and `bad`, the one in use; `active` makes it active. */
function badProfileConfig(world: World, active = false): unknown {
  const config: Record<string, unknown> = sandboxConfig(world.sb, ["default", "bad"]);
  if (active) config.active_profile = "bad";
  return config;
}

/** {@link signedInConfig} on the active profile `bad`. */
function signedInBadConfig(world: World): unknown {
  const config = signedInConfig(world) as
    & { apps: Record<string, unknown> }
    & Record<string, unknown>;
  config.apps.bad = config.apps.default;
  config.active_profile = "bad";
  config.users = {
    bad: { access_token: "@keychain:hark/walk/bad/user_token", user_type: "user" },
  };
  return config;
}

const SCENARIOS: Scenario[] = [
  {
    name: "an unknown command",
    argv: ["calender", "+agenda"],
    type: "validation",
    code: 2,
    command: "hark --help",
  },
  {
    name: "an unknown flag",
    argv: ["calendar", "+agenda", "--form", "json"],
    type: "validation",
    code: 2,
    command: "hark calendar +agenda --help",
  },
  {
    name: "a bad flag value",
    argv: ["calendar", "+agenda", "--start", "someday"],
    type: "validation",
    code: 2,
    command: "hark calendar +agenda --help",
  },
  {
    name: "bad JSON in --params",
    argv: ["api", "GET", "/open-apis/x", "--params", "{bad"],
    type: "validation",
    code: 2,
    command: "hark api --help",
  },
  {
    name: "an unknown config key",
    argv: ["config", "set", "colour", "false"],
    type: "validation",
    code: 2,
    command: "hark config set --help",
  },
  {
    name: "a mistyped --profile",
    argv: ["--profile", "wrok", "auth", "status"],
    type: "validation",
    code: 2,
    command: "hark profile list",
  },
  {
    name: "a mistyped HARK_PROFILE",
    argv: SEARCH,
    env: () => ({ HARK_PROFILE: "wrok" }),
    type: "validation",
    code: 2,
    command: "hark profile list",
  },
  {
    name: "a hand-edited base_url of 42",
    argv: SEARCH,
    config: (world) => appConfig(world, { base_url: 42 }),
    type: "validation",
    code: 2,
    command: "hark config set apps.default.base_url https://open.larksuite.com",
  },
  {
    name: "a bogus HARK_KEYCHAIN",
    argv: ["auth", "status"],
    env: () => ({ HARK_KEYCHAIN: "bogus" }),
    type: "validation",
    code: 2,
    command: "unset HARK_KEYCHAIN",
  },
  {
    name: "a malformed config file",
    argv: ["auth", "status"],
    configText: "{,}",
    type: "validation",
    code: 2,
    command: (command) => /^\$\{EDITOR:-vi\} \S+config\.json$/.test(command),
  },
  {
    name: "auth status before config init",
    argv: ["auth", "status"],
    config: () => null,
    type: "validation",
    code: 2,
    command: "hark config init",
  },
  {
    name: "a shortcut signed out, on another profile",
    argv: SEARCH,
    config: () => ({ apps: { other: { app_id: "cli_o" } } }),
    env: () => ({ HARK_PROFILE: "other" }),
    type: "auth",
    code: 3,
    command: "hark auth login --profile other",
  },
  {
    name: "a shortcut signed out",
    argv: SEARCH,
    type: "auth",
    code: 3,
    command: "hark auth login",
  },
  {
    name: "a session whose refresh token expired",
    argv: SEARCH,
    config: signedInConfig,
    setup: (_world, ctx) => signedIn(ctx, ["contact:user:search"], true),
    type: "auth",
    code: 3,
    command: "hark auth login",
  },
  {
    name: "a scope the user did not grant",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.calendarOnlyToken }),
    type: "permission",
    code: 1,
    command: (command) => command.startsWith("hark auth login --scope contact:user:search"),
  },
  {
    name: "auth check of a scope not granted",
    argv: ["auth", "check", "--scope", "drive:drive:readonly"],
    config: signedInConfig,
    // auth check asks the service whether the sign-in works: a session it issued.
    setup: async (world, ctx) => {
      const tokens = await sandboxUserToken(world.sb, { scopes: ["contact:user:search"] });
      await ctx.keychain.set(
        "hark/walk/default/user_token",
        JSON.stringify({
          access_token: tokens.accessToken,
          refresh_token: tokens.refreshToken,
          expires_at: ctx.now() + tokens.expiresIn * 1000,
          scopes: tokens.scopes,
          token_type: "Bearer",
        }),
      );
    },
    type: "permission",
    code: 1,
    command: "hark auth login --scope drive:drive:readonly",
  },
  {
    name: "an unknown service in auth check",
    argv: ["auth", "check", "calender"],
    type: "validation",
    code: 2,
    command: "hark auth check calendar +agenda",
  },
  {
    name: "an unknown service in schema",
    argv: ["schema", "calender"],
    type: "validation",
    code: 2,
    command: "hark schema",
  },
  {
    name: "a wrong app secret at sign-in",
    argv: ["auth", "login", "--no-wait", "--json"],
    env: () => ({ [SECRET_VAR]: "not-the-secret" }),
    type: "auth",
    code: 3,
    command: "hark config init --force",
    owner: "src/auth/oauth_client.ts (auth engineer): the profile exists, so config init " +
      "refuses without --force",
  },
  {
    name: "a rejected token in HARK_USER_ACCESS_TOKEN",
    argv: SEARCH,
    env: () => ({ HARK_USER_ACCESS_TOKEN: "u-not-a-token" }),
    type: "auth",
    code: 3,
    command: "unset HARK_USER_ACCESS_TOKEN",
    owner: "src/auth/env_provider.ts (auth engineer): hark auth login cannot help while the " +
      "variable is set, it wins over the keychain",
  },
  {
    name: "a sign-in denied",
    argv: ["auth", "login", "--device-code", "DEVICE_CODE"],
    setup: async (world, ctx) => {
      const code = await startSignIn(ctx);
      await control(world, { user_code: code.user_code, decision: "deny" });
      scenarioArgv.set("a sign-in denied", ["auth", "login", "--device-code", code.device_code]);
    },
    type: "auth",
    code: 3,
    command: "hark auth login",
  },
  {
    name: "a sign-in not approved within --wait",
    argv: ["auth", "login", "--device-code", "DEVICE_CODE"],
    setup: async (_world, ctx) => {
      const code = await startSignIn(ctx);
      scenarioArgv.set("a sign-in not approved within --wait", [
        "auth",
        "login",
        "--device-code",
        code.device_code,
      ]);
    },
    type: "pending",
    code: 75,
    command: (command) => /^hark auth login --device-code dc-\S+$/.test(command),
  },
  {
    name: "HTTP 503 after every retry",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    setup: (world) => fault(world, { route: "/open-apis/search", kind: "status", status: 503 }),
    type: "server_error",
    code: 4,
    command: "hark contact +search-user --query a",
  },
  {
    name: "HTTP 502 with another Lark code",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    setup: (world) =>
      fault(world, { route: "/open-apis/search", kind: "status", status: 502, code: 1234 }),
    type: "server_error",
    code: 4,
    command: "hark contact +search-user --query a",
  },
  {
    name: "the app id or secret is wrong (99991543)",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    setup: (world) =>
      fault(world, { route: "/open-apis/search", kind: "status", status: 400, code: 99991543 }),
    type: "config",
    code: 3,
    command: "hark config init --force",
  },
  {
    name: "the app cannot be used in this tenant (99991662)",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    setup: (world) =>
      fault(world, { route: "/open-apis/search", kind: "status", status: 400, code: 99991662 }),
    type: "app_status",
    code: 3,
    command: "hark contact +search-user --query a",
  },
  {
    name: "rate limited after every retry",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    setup: (world) =>
      fault(world, { route: "/open-apis/search", kind: "status", status: 429, retry_after: 0 }),
    type: "rate_limit",
    code: 1,
    command: "hark contact +search-user --query a",
  },
  {
    name: "a broken answer",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    setup: (world) => fault(world, { route: "/open-apis/search", kind: "malformed" }),
    type: "invalid_response",
    code: 1,
    command: "hark contact +search-user --query a",
  },
  {
    name: "multi-factor verification needed",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    setup: (world) =>
      fault(world, { route: "/open-apis/search", kind: "status", status: 400, code: 999914 }),
    type: "mfa",
    code: 2,
    command: "hark contact +search-user --query a",
  },
  {
    name: "an ordinary API error",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    setup: (world) =>
      fault(world, { route: "/open-apis/search", kind: "status", status: 400, code: 99992402 }),
    type: "api",
    code: 1,
    command: "hark contact +search-user --help",
  },
  {
    name: "HTTP 404: no such API",
    argv: ["api", "GET", "/open-apis/nope/v1/nothing"],
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    type: "not_found",
    code: 1,
    command: "hark config get apps",
  },
  {
    name: "a refused connection",
    argv: SEARCH,
    config: (world) => appConfig(world, { base_url: "http://127.0.0.1:9" }),
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    type: "network",
    code: 4,
    command: "hark contact +search-user --query a",
  },
  {
    name: "Ctrl-C",
    argv: SEARCH,
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    interrupted: true,
    type: "cancelled",
    code: 1,
    command: "hark contact +search-user --query a",
  },
  {
    name: "no common free slot for a meeting to book",
    setup: (world) => {
      scenarioArgv.set("no common free slot for a meeting to book", [
        "calendar",
        "+find-time",
        "--attendees",
        world.sb.users[1].open_id,
        "--duration",
        "2h",
        "--start",
        "2026-11-24 09:00",
        "--end",
        "2026-11-24 09:30",
        "--timezone",
        "UTC",
        "--create",
      ]);
      return Promise.resolve();
    },
    argv: [
      "calendar",
      "+find-time",
      "--duration",
      "2h",
      "--start",
      "2026-11-24 09:00",
      "--end",
      "2026-11-24 09:30",
      "--timezone",
      "UTC",
      "--create",
    ],
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    type: "no_slot",
    code: 1,
    command: (command) =>
      command.startsWith("hark calendar +find-time ") && command.includes("--end 2026-12-01"),
  },
  {
    name: "Ctrl-C on a command line that needs quoting",
    argv: ["contact", "+search-user", "--query", "o'brien jr"],
    env: (world) => ({ HARK_USER_ACCESS_TOKEN: world.token }),
    interrupted: true,
    type: "cancelled",
    code: 1,
    command: "hark contact +search-user --query 'o'\\''brien jr'",
  },

  // Recovery commands name the profile they concern unless it is the default: run without it,
  // they would act on the default profile (and `config init --force` would replace it).
  {
    name: "a wrong app secret at sign-in, on profile bad",
    argv: ["--profile", "bad", "auth", "login", "--no-wait", "--json"],
    config: (world) => badProfileConfig(world),
    env: () => ({ [SECRET_VAR]: "not-the-secret" }),
    type: "auth",
    code: 3,
    command: "hark config init --force --profile bad",
  },
  {
    name: "a wrong app secret as the bot, on profile bad",
    argv: ["--profile", "bad", "--as", "bot", "im", "+chats"],
    config: (world) => badProfileConfig(world),
    env: () => ({ [SECRET_VAR]: "not-the-secret" }),
    type: "auth",
    code: 3,
    command: "hark config init --force --profile bad",
  },
  {
    name: "a shortcut signed out, on the active profile bad",
    argv: SEARCH,
    config: (world) => badProfileConfig(world, true),
    type: "auth",
    code: 3,
    command: "hark auth login --profile bad",
  },
  {
    name: "a session whose refresh token expired, on the active profile bad",
    argv: SEARCH,
    config: signedInBadConfig,
    setup: (_world, ctx) => signedIn(ctx, ["contact:user:search"], true, "bad"),
    type: "auth",
    code: 3,
    command: "hark auth login --profile bad",
  },
];

/** Arguments a scenario's setup decided (a device code). */
const scenarioArgv = new Map<string, string[]>();

async function control(world: World, body: unknown): Promise<void> {
  const response = await fetch(`${world.sb.baseUrl}/sandbox/approve`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, await response.text());
}

async function startSignIn(ctx: TestContext) {
  const outcome = await runCli(ctx, ["auth", "login", "--no-wait", "--json"]);
  assert.equal(outcome.code, 0, outcome.error?.message);
  const started = JSON.parse(ctx.stdout.text());
  return started as { device_code: string; user_code: string };
}

/** What a scenario produced. */
interface Produced {
  error: HarkError;
  command: string;
  ctx: TestContext;
  /** A fresh context in the scenario's world (config, environment, keychain), no terminal. */
  again: () => TestContext;
}

async function produce(world: World, scenario: Scenario, index: number): Promise<Produced> {
  const dir = join(world.dir, String(index));
  await Deno.mkdir(dir, { recursive: true });
  const configPath = join(dir, "config.json");
  const config = scenario.config ? scenario.config(world) : appConfig(world);
  if (scenario.configText !== undefined) await Deno.writeTextFile(configPath, scenario.configText);
  else if (config !== null) await Deno.writeTextFile(configPath, JSON.stringify(config));
  // An environment token goes only to HARK_BASE_URL: point it where the config points.
  const configured = (config as { apps?: { default?: { base_url?: unknown } } } | null)?.apps
    ?.default?.base_url;
  const scenarioEnv = scenario.env?.(world) ?? {};
  const baseUrlEnv: Record<string, string> =
    "HARK_USER_ACCESS_TOKEN" in scenarioEnv && typeof configured === "string"
      ? { HARK_BASE_URL: configured }
      : {};
  const keychain = new MemoryKeychain();
  const again = () =>
    createTestContext({
      env: {
        HARK_CONFIG: configPath,
        [SECRET_VAR]: world.sb.appSecret,
        // The sandbox is trusted with the @env: app secret outside the config file.
        HARK_TRUSTED_ORIGINS: world.sb.baseUrl,
        ...baseUrlEnv,
        ...scenarioEnv,
      },
      fetch: (input, init) => fetch(input, init),
      timeout: (ms) => AbortSignal.timeout(ms),
      keychain,
    });
  const ctx = again();
  await scenario.setup?.(world, ctx);
  await fetch(`${world.sb.baseUrl}/sandbox/requests`, { method: "DELETE" }).then((r) =>
    r.body?.cancel()
  );
  if (scenario.interrupted) ctx.abort();
  const argv = scenarioArgv.get(scenario.name) ?? scenario.argv;
  const outcome = await runCli(ctx, argv);
  await fetch(`${world.sb.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
    r.body?.cancel()
  );
  assert.ok(outcome.error, `${scenario.name}: no error; stdout ${ctx.stdout.text()}`);
  const envelope = toEnvelope(outcome.error, {
    help: outcome.helpCommand,
    rerun: outcome.rerunCommand,
  });
  return { error: outcome.error, command: envelope.error.recovery.command, ctx, again };
}

/** How long a recovery command may take without a terminal, on the clock and for real. */
const SWEEP_BOUND_MS = 5_000;

/** The time each recovery command took, for the sweep's report. */
const sweep: { command: string; ms: number; code: number }[] = [];

/**
 * Runs a hark recovery command as printed, with stdin closed and no terminal, in the scenario's
 * world: it must end within {@link SWEEP_BOUND_MS}, counting both the waits hark asked of the
 * injected clock (a poll until the code expires would be 600 s there) and real time.
 */
async function runsUnattended(produced: Produced): Promise<void> {
  const split = shellWords(produced.command);
  if (!("words" in split) || split.words[0] !== "hark") return; // not hark's: unset, an editor
  const ctx = produced.again();
  const started = ctx.now();
  const real = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    runCli(ctx, split.words.slice(1)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("still running after 5 s")), SWEEP_BOUND_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  const ms = Math.max(ctx.now() - started, performance.now() - real);
  sweep.push({ command: produced.command, ms, code: outcome.code });
  assert.ok(ms <= SWEEP_BOUND_MS, `${produced.command} took ${ms} ms (waits ${ctx.sleeps.length})`);
}

async function withWorld(fn: (world: World) => Promise<void>): Promise<void> {
  const sb = await startSandbox({ quiet: true, interval: 1 });
  const dir = await Deno.makeTempDir({ prefix: "hark-recovery-walk-" });
  try {
    const { accessToken } = await sandboxUserToken(sb);
    const narrow = await sandboxUserToken(sb, { scopes: ["calendar:calendar:read"] });
    await fn({ sb, dir, token: accessToken, calendarOnlyToken: narrow.accessToken });
  } finally {
    await sb.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every error type a scenario produced, for the coverage test. */
const produced = new Set<string>();

Deno.test("every error hark produces offers a command that runs as printed and fits", async (t) => {
  await withWorld(async (world) => {
    for (const [index, scenario] of SCENARIOS.entries()) {
      await t.step({
        name: scenario.name,
        ignore: scenario.owner !== undefined,
        fn: async () => {
          const result = await produce(world, scenario, index);
          const { error, command, ctx } = result;
          produced.add(error.type);
          const facts = `${error.type} ${error.code}: ${error.message} -> ${command}`;
          assert.equal(error.type, scenario.type, facts);
          assert.equal(error.code, scenario.code, facts);
          assert.equal(await whyNotRunnable(command), undefined, facts);
          if (typeof scenario.command === "string") assert.equal(command, scenario.command, facts);
          else assert.ok(scenario.command(command, ctx), facts);
          await runsUnattended(result);
        },
      });
    }
  });
  await t.step("a bug: the same command again with --debug", bugStep);
  await t.step("the recovery commands ran without a terminal, each within 5 s", () => {
    assert.ok(sweep.length >= 20, `only ${sweep.length} hark commands ran`);
    const slowest = sweep.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(
      `recovery sweep: ${sweep.length} commands, slowest ${slowest.ms} ms: ` +
        slowest.command,
    );
  });
  await t.step("every error type in the source was produced, or says why not", coverageStep);
});

/** A bug: no real command fails that way on purpose, so the envelope is built as main.ts does. */
async function bugStep(): Promise<void> {
  const argv = ["calendar", "+agenda", "--start", "2026-11-24 10:00"];
  const command = toEnvelope(new InternalError("Unexpected error: TypeError: x"), {
    help: "hark calendar +agenda --help",
    rerun: rerunCommand(argv),
  }).error.recovery.command;
  assert.equal(command, "hark calendar +agenda --start '2026-11-24 10:00' --debug");
  assert.equal(await whyNotRunnable(command), undefined);
  produced.add("internal");
  // A secret on the command line is never printed back: the help is offered instead.
  assert.equal(rerunCommand(["config", "init", "--app-secret", "s3cr3t"]), undefined);
  assert.equal(rerunCommand(["config", "init", "--app-secret=s3cr3t"]), undefined);
}

/**
 * Error types that cannot be produced in-process, with the reason; their recovery commands are
 * still checked as written in `recovery_commands_test.ts`.
 */
const NOT_PRODUCED: Record<string, string> = {
  conflict: "needs another writer between +update's read and its write (update_test.ts has it)",
  redirect: "the sandbox never redirects",
  keychain: "tests use the in-memory keychain, which cannot fail",
  lock: "needs a second process holding the config lock",
};

/** The error types the source can build: class defaults and every `type: "…"` of an error. */
async function typesInSource(): Promise<Set<string>> {
  const types = new Set<string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory && !["sandbox", "testing"].includes(entry.name)) await walk(path);
      if (!entry.isFile || !path.endsWith(".ts") || path.endsWith("_test.ts")) continue;
      const source = await Deno.readTextFile(path);
      const file = relative(REPO_ROOT, path);
      // A type is the second argument of HarkError's constructor (directly or via super) ...
      for (
        const m of source.matchAll(
          /(?:new HarkError|super)\(\s*[\w.?]+(?:\s*\?\?\s*[\w.]+)?,\s*(?:options\.type \?\? )?"(\w+)"/g,
        )
      ) {
        types.add(m[1]);
      }
      // ... or the `type` option of an error built with `new …Error(`.
      for (const literal of sourceLiterals(file, source)) {
        const before = literal.before.slice(-600);
        const call = before.slice(before.lastIndexOf("new "));
        const open = (call.match(/\(/g) ?? []).length - (call.match(/\)/g) ?? []).length;
        if (/\btype:\s*$/.test(before) && /^new \w+Error\(/.test(call) && open > 0) {
          types.add(literal.text);
        }
      }
    }
  };
  await walk(join(REPO_ROOT, "src"));
  return types;
}

async function coverageStep(): Promise<void> {
  const types = await typesInSource();
  for (const expected of ["validation", "auth", "network", "server_error", "pending"]) {
    assert.ok(types.has(expected), `the source scan misses "${expected}"`);
  }
  const missing = [...types].filter((t) => !produced.has(t) && !(t in NOT_PRODUCED)).sort();
  assert.deepEqual(missing, [], "produce these error types in a scenario above");
}
