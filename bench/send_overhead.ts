/**
 * Per-command overhead: `im +send` end to end against the sandbox with no injected latency,
 * median of 20, with the token read from the encrypted file keychain (signed in once through the
 * CLI's own device flow, not the environment provider). `hark --version` runs interleaved with it
 * so the cost above start-up can be read off the same run. Every send is checked to have landed
 * exactly once.
 *
 * @module
 */

import { startSandbox } from "../sandbox/mod.ts";
import {
  type BenchOptions,
  type BenchResult,
  createBenchHome,
  progress,
  resetRequests,
  round1,
  runOk,
  sandboxCall,
  sendArgs,
  shellJoin,
  signIn,
  summarize,
} from "./_support.ts";

/** Measured sends per target. */
export const SEND_RUNS = 20;
/** Unmeasured sends per target first. */
export const SEND_WARMUPS = 2;

/**
 * Runs the send-overhead benchmark.
 *
 * @param options the targets and a scratch folder
 */
export async function benchSendOverhead(options: BenchOptions): Promise<BenchResult> {
  const sb = await startSandbox({ quiet: true });
  const home = await createBenchHome();
  try {
    progress("send_overhead: signing in through the CLI");
    await signIn(options.targets[0], home, sb);
    const chat = sb.chats.find((c) => c.member_open_ids.includes(sb.users[0].open_id));
    if (!chat) throw new Error("Cannot find a sandbox chat the signed-in user is a member of");
    const keychainFiles = await countFiles(home.env.HARK_DATA_DIR);
    await resetRequests(sb);

    const args = (n: number) => sendArgs(chat.chat_id, n);
    const send: number[][] = options.targets.map(() => []);
    const version: number[][] = options.targets.map(() => []);
    let sent = 0;
    for (let i = 0; i < SEND_WARMUPS + SEND_RUNS; i++) {
      if (i % 5 === 0) progress(`send_overhead: round ${i + 1} of ${SEND_WARMUPS + SEND_RUNS}`);
      for (const [k, target] of options.targets.entries()) {
        const run = await runOk(target, args(sent++), { env: home.env });
        const message = JSON.parse(run.stdout) as { message_id?: string };
        if (!message.message_id?.startsWith("om_")) {
          throw new Error(`Cannot read the sent message: ${run.stdout.slice(0, 200)}`);
        }
        const bare = await runOk(target, ["--version"], { env: home.env });
        if (i < SEND_WARMUPS) continue;
        send[k].push(run.ms);
        version[k].push(bare.ms);
      }
    }
    const messages = await sandboxCall<unknown[]>(sb, "GET", "/sandbox/messages");
    const requests = await sandboxCall<{ path: string }[]>(sb, "GET", "/sandbox/requests");
    const results = options.targets.map((target, k) => {
      const sendSummary = summarize(send[k]);
      const versionSummary = summarize(version[k]);
      return {
        target: target.name,
        command: `${target.describe} ${shellJoin(args(0))}`,
        send: sendSummary,
        version: versionSummary,
        send_over_version_ms: round1(sendSummary.median_ms - versionSummary.median_ms),
      };
    });
    return {
      bench: "send_overhead",
      latency_ms: 0,
      token_source: "file keychain (HARK_KEYCHAIN=file, AES-GCM, PBKDF2 key)",
      keychain_files: keychainFiles,
      sends: sent,
      messages_stored: messages.length,
      requests_per_send: round1(requests.length / sent),
      results,
    };
  } finally {
    await home.cleanup();
    await sb.close();
  }
}

async function countFiles(dir: string | undefined): Promise<number> {
  if (!dir) return 0;
  let count = 0;
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      if (entry.isDirectory) await walk(`${path}/${entry.name}`);
      else count++;
    }
  };
  try {
    await walk(dir);
  } catch {
    return 0;
  }
  return count;
}
