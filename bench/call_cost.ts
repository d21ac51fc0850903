/**
 * The cost of a call (issue 28), measured in one run against the sandbox on loopback, every case
 * once per round in a rotating order (see `rounds` in targets.ts):
 *
 * - `contact +me --json` with an environment token, over a bare Deno script that makes the same
 *   request (`GET /open-apis/authen/v1/user_info` with the same token) and prints the answer,
 *   run with the same flags as the stand-in;
 * - `im +send` with the token from the encrypted file keychain, minus the same send with an
 *   environment token; the file keychain's key derivation (PBKDF2-SHA256 at the iterations new
 *   files get) is timed in this process in the same run, so its share of the difference is
 *   stated beside it;
 * - `im +send` with the token from the Linux Secret Service (a private D-Bus session with an
 *   unlocked gnome-keyring, as the keychain tests start one), minus the environment-token send;
 *   skipped with a note where those programs are missing.
 *
 * Every run is checked (the user's open id, a message id), so no figure stands for something
 * that did not happen.
 *
 * @module
 */

import { join } from "node:path";
import { startSandbox } from "../sandbox/mod.ts";
import { FILE_KEYCHAIN_ITERATIONS } from "../src/keychain/file_keychain.ts";
import { findProgram } from "../scripts/test_packages.ts";
import { HARK_RUN_FLAGS } from "../scripts/permissions.ts";
import { SECRET_SERVICE_PROGRAMS, startSecretService } from "../tests/keychain/secret_service.ts";
import {
  childEnv,
  createBenchHome,
  type HarkTarget,
  progress,
  runTimed,
  sandboxCall,
  sendArgs,
  shellJoin,
  signIn,
} from "./_support.ts";

/** Measured rounds (the issue asks for at least 20). */
export const CALL_ROUNDS = 20;
/** Unmeasured rounds first. */
export const CALL_WARMUPS = 2;
/** The most `contact +me --json` may cost over the bare script. */
export const CONTACT_ME_TARGET = 1.5;
/** The most the file keychain may add to a send, in ms (unless the derivation is stated). */
export const FILE_KEYCHAIN_TARGET_MS = 10;
/** The most the Secret Service may add to a send, in ms. */
export const SECRET_SERVICE_TARGET_MS = 15;

/** The bare script: the same request as `contact +me`, its answer printed. */
const BARE_SCRIPT = `const url = Deno.env.get("BENCH_URL");
const token = Deno.env.get("BENCH_TOKEN");
const answer = await fetch(url, { headers: { authorization: "Bearer " + token } });
console.log(await answer.text());
`;

/** A command measured in the rounds. */
export interface CallCase {
  /** Key of the case. */
  id: string;
  /** The command line, for the results. */
  command: string;
  /** How to start it. */
  target: HarkTarget;
  /** Arguments after the target's (a function: each send gets its own text). */
  args: (n: number) => string[];
  /** Its environment. */
  env: Record<string, string>;
  /** Says what is wrong with an output, or nothing when it is right. */
  check: (stdout: string) => string | undefined;
}

/** What {@link prepareCallCases} made: the cases, facts for the notes, and the clean-up. */
export interface CallCases {
  /** The cases. */
  cases: CallCase[];
  /** Why a row was not measured, and other notes. */
  notes: string[];
  /** Stops the sandbox and the Secret Service and removes the homes. */
  cleanup(): Promise<void>;
}

/**
 * Starts a sandbox, signs in where a case needs it, and returns the call-cost cases.
 *
 * @param bundle the stand-in
 * @param scratch a scratch folder (the bare script goes there)
 */
export async function prepareCallCases(bundle: HarkTarget, scratch: string): Promise<CallCases> {
  const sb = await startSandbox({ quiet: true });
  const cleanups: (() => Promise<void>)[] = [() => sb.close()];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  };
  try {
    const notes: string[] = [];
    const user = sb.users[0];
    const chat = sb.chats.find((c) => c.member_open_ids.includes(user.open_id));
    if (!chat) throw new Error("Cannot find a sandbox chat the first user is a member of");
    const grant = await sandboxCall<{ access_token: string }>(sb, "POST", "/sandbox/token", {
      scopes: ["im:message.send_as_user", "im:message", "contact:user.base:readonly"],
    });
    // The environment token: no config and no keychain, the address from HARK_BASE_URL.
    const envHome = await createBenchHome();
    cleanups.push(envHome.cleanup);
    const tokenEnv: Record<string, string> = {
      ...envHome.env,
      HARK_BASE_URL: sb.baseUrl,
      HARK_USER_ACCESS_TOKEN: grant.access_token,
    };
    delete tokenEnv.HARK_KEYCHAIN_PASSWORD;
    // The file keychain: signed in through the CLI's device flow.
    const fileHome = await createBenchHome();
    cleanups.push(fileHome.cleanup);
    await signIn(bundle, fileHome, sb);

    const bareDir = join(scratch, "bare");
    await Deno.mkdir(bareDir, { recursive: true });
    await Deno.writeTextFile(join(bareDir, "user_info.js"), BARE_SCRIPT);
    const bare: HarkTarget = {
      name: "bare",
      describe: `deno run --quiet --no-prompt --no-config ${HARK_RUN_FLAGS.join(" ")} user_info.js`,
      args: ["run", "--quiet", "--no-prompt", "--no-config", ...HARK_RUN_FLAGS, "user_info.js"],
      cwd: bareDir,
    };
    const me = (stdout: string) =>
      stdout.includes(user.open_id) ? undefined : `expected ${user.open_id} in the answer`;
    const sent = (stdout: string) => {
      const message = JSON.parse(stdout) as { message_id?: string };
      return message.message_id?.startsWith("om_") ? undefined : "expected a message id";
    };
    const send = (n: number) => sendArgs(chat.chat_id, n);
    const cases: Omit<CallCase, "command">[] = [
      {
        id: "contact_me",
        target: bundle,
        args: () => ["contact", "+me", "--json"],
        env: tokenEnv,
        check: me,
      },
      {
        id: "bare_user_info",
        target: bare,
        args: () => [],
        env: {
          ...envHome.env,
          BENCH_URL: `${sb.baseUrl}/open-apis/authen/v1/user_info`,
          BENCH_TOKEN: grant.access_token,
        },
        check: me,
      },
      { id: "send_env", target: bundle, args: send, env: tokenEnv, check: sent },
      { id: "send_file", target: bundle, args: send, env: fileHome.env, check: sent },
    ];

    const missing = SECRET_SERVICE_PROGRAMS.filter((p) => !findProgram(p));
    if (Deno.build.os !== "linux" || missing.length > 0) {
      notes.push(
        `Skipped the Secret Service row: ${
          missing.length > 0 ? `${missing.join(", ")} missing` : "not on Linux"
        }`,
      );
    } else {
      progress("targets: starting a private Secret Service and signing in with it");
      const service = await startSecretService();
      cleanups.push(service.stop);
      const secretHome = await createBenchHome();
      cleanups.push(secretHome.cleanup);
      const env: Record<string, string> = {
        ...secretHome.env,
        HARK_KEYCHAIN: "linux",
        DBUS_SESSION_BUS_ADDRESS: service.env.DBUS_SESSION_BUS_ADDRESS,
        XDG_RUNTIME_DIR: service.env.XDG_RUNTIME_DIR,
      };
      delete env.HARK_KEYCHAIN_PASSWORD;
      await signIn(bundle, { ...secretHome, env }, sb);
      cases.push({ id: "send_secret_service", target: bundle, args: send, env, check: sent });
    }
    return {
      cases: cases.map((c) => ({ ...c, command: `${c.target.describe} ${shellJoin(c.args(0))}` })),
      notes,
      cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * Times the file keychain's key derivation in this process: PBKDF2-SHA256 at
 * {@link FILE_KEYCHAIN_ITERATIONS}, as one command derives it.
 *
 * @returns the derivation's milliseconds
 */
export async function timeOneKeyDerivation(): Promise<number> {
  const password = new TextEncoder().encode("bench-keychain-password");
  const started = performance.now();
  const material = await crypto.subtle.importKey("raw", password, "PBKDF2", false, [
    "deriveKey",
  ]);
  await crypto.subtle.deriveKey(
    {
      name: "PBKDF2",
      hash: "SHA-256",
      salt: crypto.getRandomValues(new Uint8Array(16)),
      iterations: FILE_KEYCHAIN_ITERATIONS,
    },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
  return performance.now() - started;
}

/**
 * Runs every case once per round, the order rotated by one each round, after
 * {@link CALL_WARMUPS} unmeasured rounds; each run's output is checked the first time, then
 * discarded. Sends get a fresh text each time.
 *
 * @param cases the commands
 * @param also a measurement made in this process once per round after the commands (the key
 *   derivation), so that it meets the machine as they did; its samples are under its `id`
 * @returns each case's wall times in ms
 * @throws {Error} when a run fails or prints the wrong thing
 */
export async function callRounds(
  cases: CallCase[],
  also?: { id: string; measure: () => Promise<number> },
): Promise<Map<string, number[]>> {
  let n = 0;
  for (const c of cases) {
    const run = await runTimed(c.target, c.args(n++), { env: c.env });
    const problem = run.code !== 0 ? `exit ${run.code}: ${run.stderr}` : c.check(run.stdout);
    if (problem) throw new Error(`Cannot measure "${c.command}": ${problem.slice(0, 2000)}`);
  }
  const samples = new Map(cases.map((c) => [c.id, [] as number[]]));
  for (let round = 0; round < CALL_WARMUPS + CALL_ROUNDS; round++) {
    if (round % 5 === 0) {
      progress(`targets: call-cost round ${round + 1} of ${CALL_WARMUPS + CALL_ROUNDS}`);
    }
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(round + k) % cases.length];
      const started = performance.now();
      const status = await new Deno.Command(c.target.program ?? Deno.execPath(), {
        args: [...c.target.args, ...c.args(n++)],
        cwd: c.target.cwd,
        env: childEnv(c.env),
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn().status;
      const ms = performance.now() - started;
      if (!status.success) throw new Error(`Cannot measure "${c.command}": it failed`);
      if (round >= CALL_WARMUPS) samples.get(c.id)!.push(ms);
    }
    if (also) {
      const ms = await also.measure();
      if (round >= CALL_WARMUPS) {
        (samples.get(also.id) ?? samples.set(also.id, []).get(also.id)!).push(ms);
      }
    }
  }
  return samples;
}
