/**
 * The one test world of hark's end-to-end tests: a sandbox, a throwaway hark home whose config
 * points at it (one app entry per profile, the secret in an environment variable), the sandbox's
 * control routes, and a signed-in user when a test needs one.
 *
 * A test that is about something else than the sign-in gets its user from {@link World.signIn},
 * which runs `hark auth login` in process, through the same command code and file keychain as the
 * CLI, on a clock that does not wait: the device flow's 5 s before the first poll is a rule of
 * `src/auth/device_flow_test.ts`, not something every test should sit through.
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

import { runCli } from "../../src/cli/run_cli.ts";
import type { Context } from "../../src/context.ts";
import { FileKeychain } from "../../src/keychain/file_keychain.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/mod.ts";
import { createTestContext } from "../../src/testing/test_context.ts";
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
  /** Extra variables of every run (the app secret's {@link APP_SECRET_VAR} is always set). */
  env?: Record<string, string>;
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
   * @returns what `auth login --json` prints
   * @throws {Error} when the sign-in fails
   */
  signIn(options?: SignInOptions): Promise<Record<string, unknown>>;
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
    home = await createHarkEnv({ [APP_SECRET_VAR]: sb.appSecret, ...options.env });
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
    signIn: (signInOptions) => signInInProcess(world, signInOptions),
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

/**
 * What an in-process context of a world shares with a hark process: real time, real randomness
 * (lock nonces, the keychain namespace) and this process's id, over a test context's captured
 * streams and `env`.
 */
function liveContext(home: HarkEnv, env: Record<string, string> = home.env) {
  const base = createTestContext({
    env,
    homeDir: home.env.HOME,
    fetch: (input, init) => fetch(input, init),
    timeout: (ms) => AbortSignal.timeout(ms),
  });
  return {
    ...base,
    now: () => Date.now(),
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        setTimeout(resolve, ms);
      }),
    randomUUID: () => crypto.randomUUID(),
    randomBytes: (length: number) => crypto.getRandomValues(new Uint8Array(length)),
    pid: Deno.pid,
  };
}

/**
 * The file keychain of a home, as hark opens it there (`HARK_KEYCHAIN=file`).
 *
 * @param home the hark home
 */
export function homeKeychain(home: HarkEnv): FileKeychain {
  return new FileKeychain(liveContext(home));
}

async function signInInProcess(
  world: World,
  options: SignInOptions = {},
): Promise<Record<string, unknown>> {
  const { sb, home } = world;
  const live = liveContext(home);
  let approved = false;
  const ctx: Context = {
    ...live,
    // No wait is real: the first approves the code `auth login` has just shown, and every one
    // only yields to the event loop (a lock's retry spins instead of sleeping).
    async sleep(_ms, signal) {
      if (signal?.aborted) throw signal.reason;
      await new Promise((resolve) => setTimeout(resolve, 0));
      const shown = /enter the code: (\S+)/.exec(live.stderr.text());
      if (approved || !shown) return;
      approved = true;
      const answer = await control(sb, "/sandbox/approve", {
        user_code: shown[1],
        decision: "approve",
        open_id: options.openId,
        access_token_ttl: options.accessTokenTtl,
        refresh_token_ttl: options.refreshTokenTtl,
      });
      if (answer.ok !== true) throw new Error(`Cannot approve: ${JSON.stringify(answer)}`);
    },
    keychain: homeKeychain(home),
  };
  const profile = options.profile ?? "default";
  const outcome = await runCli(ctx, [
    "auth",
    "login",
    "--json",
    "--profile",
    profile,
    ...(options.args ?? []),
  ]);
  if (outcome.code !== 0) {
    throw new Error(
      `Cannot sign in to profile "${profile}": exit ${outcome.code}: ${outcome.error?.message}\n` +
        live.stderr.text(),
    );
  }
  return JSON.parse(live.stdout.text());
}
