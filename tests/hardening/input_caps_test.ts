/**
 * Issue 21, lows, end to end: inputs a user names on the command line are bounded. `--data
 * @/dev/zero --dry-run` hung, reading forever; a pipe with no writer hung at its opening. Now
 * `--data`, `--params` and `--input` read a file only when it is a regular file (refused before
 * it is opened otherwise), and a file or stdin at most 10 MiB: each ends at once with exit 2 and
 * an error naming the flag and the fix, and nothing is sent.
 *
 * The size caps and the file within them run in process ({@link runInProcess}: the same command
 * code and file reading as a hark process, no Deno start-up). A device and a pipe stay real hark
 * processes: read through, they would hang or fill the test runner itself instead of failing
 * within the real clock's bound.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, type HarkEnv, type HarkRun } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";
import { assertEnvelope } from "./_envelope.ts";

const ENV = { HARK_USER_ACCESS_TOKEN: "u-input-caps-000001", HARK_BASE_URL: "http://127.0.0.1:9" };

/** A run of hark as a real process (a device, a pipe), or in process (`inProcess`). */
function runIn(home: HarkEnv, args: string[], stdin?: string, inProcess = false): Promise<HarkRun> {
  if (inProcess) return runInProcess(home, args, { env: ENV, stdin });
  return home.run(args, { env: ENV, stdin, timeoutMs: 30_000 });
}

async function refused(
  home: HarkEnv,
  args: string[],
  message: RegExp,
  stdin?: string,
  inProcess = false,
) {
  const started = performance.now();
  const run = await runIn(home, [...args, "--json"], stdin, inProcess);
  const label = `hark ${args.join(" ")}`;
  assert.equal(run.code, 2, `${label}: ${run.stderr}`);
  const error = assertEnvelope(run, label);
  assert.equal(error.type, "validation");
  assert.match(error.message, message, label);
  assert.ok(performance.now() - started < 20_000, `${label} took too long`);
  return error;
}

Deno.test({
  name: "--data, --params and --input refuse a device, a pipe and more than 10 MiB, at once",
  ignore: Deno.build.os === "windows",
  async fn() {
    const home = await createHarkEnv();
    const fifo = join(home.dir, "no-writer.fifo");
    const big = join(home.dir, "big.json");
    try {
      assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
      await Deno.writeTextFile(big, `{"pad":"${"x".repeat(11 * 1024 * 1024)}"}`);
      const notRegular = /it is not a regular file \(a pipe, a device or a socket\)$/;
      const error = await refused(
        home,
        ["api", "POST", "/open-apis/im/v1/messages", "--data", "@/dev/zero", "--dry-run"],
        /^Cannot read --data file "\/dev\/zero": /,
      );
      assert.match(error.message, notRegular);
      assert.equal(error.recovery.suggestion, "Give a file, or pass --data - to read stdin");
      await refused(home, ["api", "GET", "/open-apis/x", "--params", `@${fifo}`], notRegular);
      await refused(
        home,
        ["calendar", "+agenda", "--input", "/dev/urandom", "--dry-run"],
        /^Cannot read --input file "\/dev\/urandom": it is not a regular file/,
      );
      await refused(home, ["calendar", "+agenda", "--input", fifo], notRegular);
      await refused(
        home,
        ["api", "POST", "/open-apis/x", "--data", `@${big}`, "--dry-run"],
        /^Cannot read --data file ".*big\.json": it is larger than 10 MiB$/,
        undefined,
        true,
      );
      await refused(
        home,
        ["api", "POST", "/open-apis/x", "--data", "-", "--dry-run"],
        /^Cannot read --data from stdin: it is larger than 10 MiB$/,
        await Deno.readTextFile(big),
        true,
      );
      // A file within the cap is read as before.
      const small = join(home.dir, "small.json");
      await Deno.writeTextFile(small, '{"receive_id": "oc_1"}');
      const ok = await runInProcess(
        home,
        ["api", "POST", "/open-apis/im/v1/messages", "--data", `@${small}`, "--dry-run"],
        { env: ENV },
      );
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /"receive_id":"oc_1"/);
    } finally {
      await home.cleanup();
    }
  },
});
