/**
 * The one test world of hark's end-to-end tests: a sandbox, a throwaway hark home whose config
 * points at it (one app entry per profile, the secret in an environment variable), the sandbox's
 * control routes, and a signed-in user when a test needs one.
 *
 * A test that is about something else than the sign-in gets its user from {@link World.signIn},
 * which runs `hark auth login` in process, through the same command code and file keychain as the
 * CLI, on a clock that does not wait: the device flow's 5 s before the first poll is a rule of
 * `src/auth/device_flow_test.ts`, not something every test should sit through. The same way,
 * {@link runInProcess} runs any command in a home where a subprocess would wait on real timers
 * (a `--wait` bound, a code's expiry, back-off between retries); end-to-end tests keep a real
 * hark process for the wiring.
 *
 * @example
 * ```ts
 * const world = await startWorld();
 * try {
 *   await world.signIn({ openId: world.sb.users[1].open_id });
 *   const run = await world.run(["calendar", "+agenda", "--json"]);
 * } finally {
 *   await world.close();
 * }
 * ```
 *
 * @module
 */

import { renderError } from "../../src/cli/render_error.ts";
import { errorStyle, runCli } from "../../src/cli/run_cli.ts";
import { paint } from "../../src/output/color.ts";
import type { Context } from "../../src/context.ts";
import { FileKeychain } from "../../src/keychain/file_keychain.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../sandbox/mod.ts";
import { createTestContext } from "./test_context.ts";
import { createHarkEnv, type HarkEnv, type HarkRun, type RunHarkOptions } from "./hark_env.ts";
import type { LiveProcess } from "./subprocess.ts";

/** The variable holding the sandbox app's secret in every world. */
export const APP_SECRET_VAR = "HARK_TEST_APP_SECRET";

/** One request of the sandbox's log. */
export interface Logged {
  time: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON or a form object (`grant_type`, `device_code`…), or null. */
  body: Record<string, string> | null;
}

/** Options of {@link startWorld}. */
export interface WorldOptions {
  /** The sandbox's options; default quiet, with a device-flow interval of 1 s. */
  sandbox?: SandboxOptions;
  /** The profiles whose app is the sandbox's; default `["default"]`; `[]` writes no config. */
  profiles?: string[];
  /**
   * Extra variables of every run, or a function of the sandbox that makes them (for
   * `HARK_BASE_URL`); the app secret's {@link APP_SECRET_VAR} is always set.
   */
  env?: Record<string, string> | ((sb: Sandbox) => Record<string, string>);
}

/** Options of {@link World.signIn}. */
export interface SignInOptions {
  /** The profile; default `default`. */
  profile?: string;
  /** The user who approves; default the sandbox's first. */
  openId?: string;
  /** Lifetime of the access token, seconds; default the sandbox's. */
  accessTokenTtl?: number;
  /** Lifetime of the refresh token, seconds; default the sandbox's. */
  refreshTokenTtl?: number;
  /** More `auth login` arguments (`--scope`, `--force`). */
  args?: string[];
}

/** A sandbox and a hark home configured for it. */
export interface World {
  /** The sandbox. */
  sb: Sandbox;
  /** The hark home (its folder, config path, environment). */
  home: HarkEnv;
  /** Runs `hark <args>` as a subprocess in the home. */
  run(args: string[], options?: RunHarkOptions): Promise<HarkRun>;
  /** Starts `hark <args>` as a subprocess whose stderr can be awaited. */
  start(args: string[], options?: RunHarkOptions): LiveProcess;
  /** POSTs JSON to a sandbox route, such as `/sandbox/approve`, and returns its JSON answer. */
  control(path: string, body: unknown): Promise<Record<string, unknown>>;
  /** The sandbox's request log, oldest first. */
  requestLog(): Promise<Logged[]>;
  /** Empties the sandbox's request log. */
  clearRequests(): Promise<void>;
  /**
   * Signs in as `hark auth login --json` does (see the module doc), approving the device code
   * on the sandbox as soon as it shows.
   *
   * @returns the run of `auth login --json` (its result on stdout, warnings on stderr)
   * @throws {Error} when the sign-in fails
   */
  signIn(options?: SignInOptions): Promise<InProcessRun>;
  /**
   * Runs `hark <args>` in process in the home (its config, file keychain and environment), on a
   * clock that never waits: for the behaviour of a command whose subprocess would sit through
   * real timers (a device-flow wait, a `--wait` bound). The error is printed as `main.ts`
   * prints it, without colour.
   */
  runInProcess(args: string[], options?: InProcessOptions): Promise<InProcessRun>;
  /** Stops the sandbox and removes the home. */
  close(): Promise<void>;
}

/**
 * The config of a home whose profiles all use the sandbox's app, the secret read from
 * {@link APP_SECRET_VAR}.
 *
 * @param sb the sandbox
 * @param profiles the profile names
 */
export function sandboxConfig(
  sb: Pick<Sandbox, "appId" | "baseUrl">,
  profiles: readonly string[] = ["default"],
): { apps: Record<string, { app_id: string; app_secret: string; base_url: string }> } {
  const apps: Record<string, { app_id: string; app_secret: string; base_url: string }> = {};
  for (const name of profiles) {
    apps[name] = { app_id: sb.appId, app_secret: `@env:${APP_SECRET_VAR}`, base_url: sb.baseUrl };
  }
  return { apps };
}

/**
 * POSTs JSON to a sandbox route and returns its JSON answer.
 *
 * @param sb the sandbox
 * @param path such as `/sandbox/approve`
 * @param body the JSON body
 */
export async function control(
  sb: Pick<Sandbox, "baseUrl">,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(sb.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return await response.json();
}

/**
 * The sandbox's request log, oldest first.
 *
 * @param sb the sandbox
 */
export async function requestLog(sb: Pick<Sandbox, "baseUrl">): Promise<Logged[]> {
  return await (await fetch(`${sb.baseUrl}/sandbox/requests`)).json();
}

/**
 * Starts a sandbox and a hark home configured for it.
 *
 * @param options the sandbox's options, the profiles and extra environment
 */
export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const sb = await startSandbox({ quiet: true, interval: 1, ...options.sandbox });
  let home: HarkEnv;
  try {
    const env = typeof options.env === "function" ? options.env(sb) : options.env;
    // The sandbox is the user's own deployment: trusted with the @env: app secret explicitly.
    home = await createHarkEnv({
      [APP_SECRET_VAR]: sb.appSecret,
      HARK_TRUSTED_ORIGINS: sb.baseUrl,
      ...env,
    });
  } catch (error) {
    await sb.close();
    throw error;
  }
  const world: World = {
    sb,
    home,
    run: (args, runOptions) => home.run(args, runOptions),
    start: (args, runOptions) => home.start(args, runOptions),
    control: (path, body) => control(sb, path, body),
    requestLog: () => requestLog(sb),
    async clearRequests() {
      await (await fetch(`${sb.baseUrl}/sandbox/requests`, { method: "DELETE" })).body?.cancel();
    },
    signIn: (signInOptions) => signIn(home, sb, signInOptions),
    runInProcess: (args, inProcessOptions) => runInProcess(home, args, inProcessOptions),
    async close() {
      await home.cleanup();
      await sb.close();
    },
  };
  const profiles = options.profiles ?? ["default"];
  try {
    if (profiles.length > 0) await home.writeConfig(sandboxConfig(sb, profiles));
  } catch (error) {
    await world.close();
    throw error;
  }
  return world;
}

/** What {@link World.runInProcess} produced. */
export interface InProcessRun extends HarkRun {
  /** Every wait hark asked for, in ms, in order (none of them was real). */
  sleeps: number[];
}

/** Options of {@link World.runInProcess}. */
export interface InProcessOptions {
  /** Extra or overriding variables. */
  env?: Record<string, string>;
  /** Text on stdin; default none. */
  stdin?: string;
  /**
   * Called once, at the first wait after `enter the code: <code>` shows on stderr (an approval
   * or a denial on the sandbox). Given, stdin is a terminal: a person is there to approve, so
   * `auth login` waits (without one it starts the sign-in for later and ends pending).
   */
  onCode?: (userCode: string) => Promise<void>;
  /**
   * `fake` (default): the clock starts now and moves only by hark's waits, so a `--wait` bound
   * or a code's expiry is reached at once. `real`: the system clock, while waits still end at
   * once, so that expiry times stored in the keychain are what a later subprocess sees.
   */
  clock?: "fake" | "real";
}

/**
 * Runs `hark <args>` in process in a home: the command code, config and file keychain of a hark
 * process, this process's network, and a clock that never waits (see
 * {@link World.runInProcess}).
 *
 * @param home the hark home
 * @param args the arguments after `hark`
 * @param options extra environment, what to do with a device code, which clock
 */
export async function runInProcess(
  home: HarkEnv,
  args: string[],
  options: InProcessOptions = {},
): Promise<InProcessRun> {
  // A connection pool of its own, as a hark process has: no run meets another's connections.
  const client = Deno.createHttpClient({});
  const base = createTestContext({
    now: Date.now(),
    env: { ...home.env, ...options.env },
    stdin: options.stdin,
    homeDir: home.env.HOME,
    fetch: (input, init) => fetch(input, { ...init, client }),
    timeout: (ms) => AbortSignal.timeout(ms),
    stdinIsTerminal: options.onCode !== undefined,
  });
  let pendingCode = options.onCode;
  const ctx: Context = {
    ...base,
    now: options.clock === "real" ? () => Date.now() : base.now,
    async sleep(ms, signal) {
      await base.sleep(ms, signal);
      // A lock's retry spins here instead of sleeping: let the other side run.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const shown = pendingCode && /enter the code: (\S+)/.exec(base.stderr.text());
      if (!shown || !pendingCode) return;
      const onCode = pendingCode;
      pendingCode = undefined;
      await onCode(shown[1]);
    },
    keychain: homeKeychain(home),
    randomUUID: () => crypto.randomUUID(),
    randomBytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
    pid: Deno.pid,
  };
  let outcome;
  try {
    outcome = await runCli(ctx, args);
  } finally {
    client.close();
  }
  let stderr = base.stderr.text();
  if (outcome.error) {
    const style = await errorStyle(ctx, outcome);
    stderr += renderError(outcome.error, { ...outcome, json: style.json, paint: paint(false) });
  }
  return { code: outcome.code, stdout: base.stdout.text(), stderr, sleeps: base.sleeps };
}

/**
 * PBKDF2 iterations of the entries the in-process runs write: few, so that reading them costs
 * next to nothing. Hark reads an entry with the count it was written with, and every sign-in
 * of a test world is written here and read by several processes after: at the production count
 * (600,000, a rule of `src/keychain/file_keychain_test.ts`) each of those reads cost a
 * derivation of about 150 ms of CPU. What a hark process writes itself keeps the production
 * count.
 */
export const TEST_KEYCHAIN_ITERATIONS = 1_000;

/**
 * The file keychain of a home, as hark opens it there (`HARK_KEYCHAIN=file`), with real time
 * and randomness (its lock's nonce), writing with {@link TEST_KEYCHAIN_ITERATIONS}.
 *
 * @param home the hark home
 */
export function homeKeychain(home: HarkEnv): FileKeychain {
  return new FileKeychain({
    ...createTestContext({ env: home.env, homeDir: home.env.HOME }),
    now: () => Date.now(),
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    randomUUID: () => crypto.randomUUID(),
    randomBytes: (length: number) => crypto.getRandomValues(new Uint8Array(length)),
    pid: Deno.pid,
  }, { iterations: TEST_KEYCHAIN_ITERATIONS });
}

/**
 * Signs in to a home's profile as `hark auth login --json` does, in process (see
 * {@link World.signIn}), approving the device code on `sb` as soon as it shows.
 *
 * @param home the hark home (its config names the app)
 * @param sb the sandbox that approves
 * @param options the profile, the user, token lifetimes, more arguments
 * @returns the run of `auth login --json`
 * @throws {Error} when the sign-in fails
 */
export async function signIn(
  home: HarkEnv,
  sb: Pick<Sandbox, "baseUrl">,
  options: SignInOptions = {},
): Promise<InProcessRun> {
  const profile = options.profile ?? "default";
  const run = await runInProcess(
    home,
    ["auth", "login", "--json", "--profile", profile, ...(options.args ?? [])],
    {
      clock: "real",
      onCode: async (userCode) => {
        const answer = await control(sb, "/sandbox/approve", {
          user_code: userCode,
          decision: "approve",
          open_id: options.openId,
          access_token_ttl: options.accessTokenTtl,
          refresh_token_ttl: options.refreshTokenTtl,
        });
        if (answer.ok !== true) throw new Error(`Cannot approve: ${JSON.stringify(answer)}`);
      },
    },
  );
  if (run.code !== 0) {
    throw new Error(`Cannot sign in to profile "${profile}": exit ${run.code}: ${run.stderr}`);
  }
  return run;
}
