/**
 * A sandbox, a signed-in user (an environment token) and a throwaway hark home, for the
 * shortcut end-to-end tests.
 *
 * @module
 */

import type { Sandbox, SandboxOptions } from "../../sandbox/mod.ts";
import type { HarkEnv, HarkRun, RunHarkOptions } from "../support/hark_env.ts";
import { sandboxUserToken } from "../support/sandbox_token.ts";
import { runInProcess, startWorld } from "../support/world.ts";

/** One logged sandbox request. */
export interface Logged {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
}

/** A ready environment. */
export interface ShortcutEnv {
  sb: Sandbox;
  hark: HarkEnv;
  /** The user's access token (all scopes). */
  token: string;
  /** Runs hark with TZ=UTC and the token in HARK_USER_ACCESS_TOKEN. */
  run(args: string[], options?: RunHarkOptions): Promise<HarkRun>;
  /** Runs hark as the bot: `--as bot`, no user token (the app's credentials sign in). */
  runBot(args: string[], options?: RunHarkOptions): Promise<HarkRun>;
  /** {@link ShortcutEnv.run} as a real hark process, whatever {@link How.inProcess} says. */
  runProcess(args: string[], options?: RunHarkOptions): Promise<HarkRun>;
  /** The sandbox's business requests (/open-apis/ only), oldest first. */
  requests(): Promise<Logged[]>;
  /** Empties the request log and the in-flight peak. */
  clearRequests(): Promise<void>;
  /** A sandbox JSON route. */
  get<T>(path: string): Promise<T>;
  /** POSTs JSON to a sandbox route. */
  post(path: string, body: unknown, token?: string): Promise<unknown>;
  close(): Promise<void>;
}

/** How {@link createShortcutEnv}'s runs run. */
export interface How {
  /**
   * Whether `run` and `runBot` run the command code in process ({@link runInProcess}: the same
   * commands, config, file keychain and network, no Deno start-up per run) rather than as a
   * hark process; default false. A file that sets it keeps its wiring check on `runProcess`.
   */
  inProcess?: boolean;
}

/**
 * Starts everything: a {@link startWorld} world whose runs also get `TZ=UTC` and
 * `HARK_BASE_URL`, and a user token of the sandbox.
 *
 * @param options the sandbox's options, such as the seed data's anchor day (default today)
 * @param how whether the runs are in process
 */
export async function createShortcutEnv(
  options: Partial<SandboxOptions> = {},
  how: How = {},
): Promise<ShortcutEnv> {
  // HARK_BASE_URL: the environment token goes to the sandbox only.
  const world = await startWorld({
    sandbox: options,
    env: (sb) => ({ TZ: "UTC", HARK_BASE_URL: sb.baseUrl }),
  });
  const { sb, home: hark } = world;
  try {
    const { accessToken } = await sandboxUserToken(sb);
    const call = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${sb.baseUrl}${path}`, init);
      const body = await response.json();
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    };
    const runHow = (inProcess: boolean, args: string[], options: RunHarkOptions) => {
      if (!inProcess) return hark.run(args, options);
      const env = { ...hark.env };
      for (const [name, value] of Object.entries(options.env ?? {})) {
        if (value === undefined) delete env[name];
        else env[name] = value;
      }
      return runInProcess({ ...hark, env }, args, { stdin: options.stdin });
    };
    const asUser = (options: RunHarkOptions) => ({
      ...options,
      env: { HARK_USER_ACCESS_TOKEN: accessToken, ...options.env },
    });
    return {
      sb,
      hark,
      token: accessToken,
      run: (args, options = {}) => runHow(how.inProcess === true, args, asUser(options)),
      runBot: (args, options = {}) =>
        runHow(how.inProcess === true, [...args, "--as", "bot"], {
          ...options,
          env: { ...options.env, HARK_USER_ACCESS_TOKEN: undefined },
        }),
      runProcess: (args, options = {}) => runHow(false, args, asUser(options)),
      requests: async () =>
        ((await call("/sandbox/requests")) as Logged[]).filter((r) =>
          r.path.startsWith("/open-apis/")
        ),
      clearRequests: () => world.clearRequests(),
      get: (path) => call(path),
      post: (path, body, token) =>
        call(path, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        }),
      close: () => world.close(),
    };
  } catch (error) {
    await world.close();
    throw error;
  }
}

/** Parses stdout as JSON, failing with the run's output when it is not. */
export function jsonOf<T = unknown>(run: HarkRun): T {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`exit ${run.code}; stdout: ${run.stdout}; stderr: ${run.stderr}`);
  }
}
