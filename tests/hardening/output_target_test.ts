/**
 * Issue 21, lows, end to end: `im +download --output`. `--output <device> --force` replaced the
 * device with a regular file (a pipe of the user's, `/dev/null` where hark may write), and the
 * error for `/dev/null` without `--force` suggested adding it; a 131,000-character `--output`
 * ended in an internal error (exit 5). Against a server on 127.0.0.1 that would serve the file:
 * each is a validation error naming `--output` (exit 2), the device or pipe is left as it was,
 * no suggestion says `--force`, and nothing is downloaded.
 *
 * `/dev/null` and the long path run in process ({@link runInProcess}: the same command code, file
 * checks and network as a hark process, no Deno start-up). The pipe stays a real hark process:
 * opened for writing, it would block the test runner itself instead of failing.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, type HarkEnv } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";
import { assertEnvelope } from "./_envelope.ts";
import { startHostileServer } from "./_hostile_server.ts";

/** Downloads to `output`, as a real hark process when `how` says so, else in process. */
async function download(
  home: HarkEnv,
  baseUrl: string,
  how: "process" | "in process",
  output: string,
  ...extra: string[]
) {
  const args = ["im", "+download", "--message-id", "om_out_1", "--key", "file_v3_out"]
    .concat(["--output", output], extra, ["--json"]);
  const env = { HARK_USER_ACCESS_TOKEN: "u-output-target-0001", HARK_BASE_URL: baseUrl };
  return how === "process"
    ? await home.run(args, { env })
    : await runInProcess(home, args, { env });
}

Deno.test({
  name: "--output never replaces a device or a pipe, and a path too long is a clear error",
  ignore: Deno.build.os === "windows",
  async fn() {
    const server = startHostileServer(() =>
      new Response("PAYLOAD", { headers: { "content-type": "application/pdf" } })
    );
    const home = await createHarkEnv();
    try {
      const fifo = join(home.dir, "mine.fifo");
      assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
      for (const output of ["/dev/null", fifo]) {
        for (const force of [[], ["--force"]]) {
          const how = output === fifo ? "process" : "in process";
          const run = await download(home, server.url, how, output, ...force);
          const label = `--output ${output} ${force.join(" ")}`;
          assert.equal(run.code, 2, `${label}: ${run.stderr}`);
          const error = assertEnvelope(run, label);
          assert.match(
            error.message,
            /it is not a regular file \(a device, a pipe or a socket\), and hark only writes files$/,
          );
          assert.doesNotMatch(error.recovery.suggestion, /--force/, label);
        }
      }
      assert.ok((await Deno.lstat(fifo)).isFifo, "the pipe is still a pipe");
      assert.equal((await Deno.lstat("/dev/null")).isCharDevice, true);

      const long = join(home.dir, "x".repeat(131_000));
      const run = await download(home, server.url, "in process", long);
      assert.equal(run.code, 2, run.stderr);
      const error = assertEnvelope(run, "a 131,000-character --output");
      assert.match(error.message, /\(--output\): the path is too long \(\d+ characters\)$/);
      assert.ok(run.stderr.length < 2_000, "the error quotes the start of the path only");
      assert.equal(server.received.length, 0, "nothing was downloaded");
    } finally {
      await home.cleanup();
      await server.close();
    }
  },
});
