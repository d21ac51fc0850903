/**
 * Shared set-up of the auth end-to-end tests: a sandbox, a throwaway hark home whose config
 * points at it, and a way to run `hark auth login` while reading its stderr as it comes.
 *
 * @module
 */

import { dirname } from "node:path";
import { type Sandbox, startSandbox } from "../../sandbox/mod.ts";
import {
  createHarkEnv,
  HARK_RUN_FLAGS,
  type HarkEnv,
  type HarkRun,
  MAIN_TS,
  REPO_ROOT,
} from "../support/hark_env.ts";

/** Options of the sandbox. */
export type SandboxOptions = Parameters<typeof startSandbox>[0];

/** A sandbox and a hark home configured for it. */
export interface AuthWorld {
  sb: Sandbox;
  env: HarkEnv;
  close(): Promise<void>;
}

/**
 * Starts a sandbox and a hark home with one app entry per profile name.
 *
 * @param options sandbox options
 * @param profiles the profiles to configure
 */
export async function startWorld(
  options: SandboxOptions = {},
  profiles: string[] = ["default"],
): Promise<AuthWorld> {
  const sb = await startSandbox({ quiet: true, interval: 1, ...options });
  // The sandbox is the user's own deployment: trusted with the @env: app secret explicitly.
  const env = await createHarkEnv({
    HARK_TEST_APP_SECRET: sb.appSecret,
    HARK_TRUSTED_ORIGINS: sb.baseUrl,
  });
  const apps: Record<string, unknown> = {};
  for (const name of profiles) {
    apps[name] = {
      app_id: sb.appId,
      app_secret: "@env:HARK_TEST_APP_SECRET",
      base_url: sb.baseUrl,
    };
  }
  await Deno.mkdir(dirname(env.configPath), { recursive: true });
  await Deno.writeTextFile(env.configPath, JSON.stringify({ apps }, null, 2));
  return {
    sb,
    env,
    async close() {
      await env.cleanup();
      await sb.close();
    },
  };
}

/** A running `hark` whose stderr can be awaited line by line. */
export interface LiveHark {
  /** Resolves with the first stderr match of `pattern`. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves when the process ends. */
  done: Promise<HarkRun>;
}

/**
 * Starts `hark <args>` in `env`, streaming its stderr.
 *
 * @param env the hark home
 * @param args the arguments
 * @param extraEnv extra variables
 */
export function spawnHark(
  env: HarkEnv,
  args: string[],
  extraEnv: Record<string, string> = {},
): LiveHark {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-check", ...HARK_RUN_FLAGS, MAIN_TS, ...args],
    env: { ...env.env, ...extraEnv },
    clearEnv: true,
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(stderr);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  const stderrDone = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      stderr += decoder.decode(chunk, { stream: true });
      check();
    }
  })();
  const done = (async () => {
    const [stdout, status] = await Promise.all([new Response(child.stdout).text(), child.status]);
    await stderrDone;
    for (const waiter of waiters) waiter.resolve(null as unknown as RegExpExecArray);
    return { code: status.code, stdout, stderr };
  })();
  return {
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        waiters.push({
          pattern,
          resolve: (
            m,
          ) => (m ? resolve(m) : reject(new Error(`hark ended without ${pattern}: ${stderr}`))),
        });
        check();
      });
    },
    done,
  };
}

/**
 * Posts a JSON body to a sandbox control route.
 *
 * @param sb the sandbox
 * @param path such as `/sandbox/approve`
 * @param body the JSON body
 */
export async function control(
  sb: Sandbox,
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

/** One request of the sandbox's log. */
export interface Logged {
  time: string;
  method: string;
  path: string;
  body: Record<string, string> | null;
}

/**
 * The sandbox's request log.
 *
 * @param sb the sandbox
 */
export async function requestLog(sb: Sandbox): Promise<Logged[]> {
  return await (await fetch(`${sb.baseUrl}/sandbox/requests`)).json();
}

/**
 * Runs a full `hark auth login --json` approved through the API as soon as the code shows.
 *
 * @param world the sandbox and home
 * @param profile the profile
 * @param approval extra fields of `POST /sandbox/approve`
 */
export async function loginApproved(
  world: AuthWorld,
  profile = "default",
  approval: Record<string, unknown> = {},
): Promise<HarkRun> {
  const live = spawnHark(world.env, ["auth", "login", "--json", "--profile", profile]);
  const [, userCode] = await live.waitFor(/enter the code: (\S+)/);
  const answer = await control(world.sb, "/sandbox/approve", {
    user_code: userCode,
    decision: "approve",
    ...approval,
  });
  if (answer.ok !== true) throw new Error(`Approval failed: ${JSON.stringify(answer)}`);
  return await live.done;
}
