/**
 * Issue 21, lows, end to end: uploads. The size of `--file` was checked once, when it was
 * opened: a 29 MB file that grew to 229 MB while it was being sent went up whole. A pipe with no
 * writer hung `+send --file` forever. Against a server on 127.0.0.1 that grows the file as soon
 * as the upload starts and counts what it receives (it reads at most 64 MiB): hark stops at
 * Lark's 30 MB, says so (exit 2, naming --file), and sends the upload once; a pipe is refused
 * before it is opened.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { MAX_FILE_BYTES } from "../../src/shortcuts/im/media.ts";
import { createHarkEnv } from "../support/hark_env.ts";
import { assertEnvelope } from "./_envelope.ts";

const MiB = 1024 * 1024;
// Uploads go with the tenant token (as Lark requires), the message with the user token.
const ENV = {
  HARK_USER_ACCESS_TOKEN: "u-upload-limits-0001",
  HARK_TENANT_ACCESS_TOKEN: "t-upload-limits-0001",
};

Deno.test("a file that grows past 30 MB while it is sent is stopped there, and sent once", async () => {
  const home = await createHarkEnv();
  const path = join(home.dir, "growing.log");
  // 29 MiB now: within the limit when hark looks at it.
  await Deno.writeFile(path, new Uint8Array(0));
  await Deno.truncate(path, 29 * MiB);
  const uploads: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (!new URL(request.url).pathname.endsWith("/im/v1/files")) {
      return Response.json({ code: 1, msg: "unexpected" }, { status: 400 });
    }
    // The file grows to 229 MiB as the upload begins.
    await Deno.truncate(path, 229 * MiB);
    let received = 0;
    try {
      const reader = request.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > 64 * MiB) {
          await reader.cancel();
          break;
        }
      }
    } catch {
      // hark stopped sending.
    }
    uploads.push(received);
    return Response.json({ code: 0, msg: "success", data: { file_key: "file_v3_grown" } });
  });
  try {
    const run = await home.run(
      ["im", "+send", "--chat-id", "oc_upload_1", "--file", path, "--json"],
      { env: { ...ENV, HARK_BASE_URL: `http://127.0.0.1:${server.addr.port}` }, timeoutMs: 60_000 },
    );
    assert.equal(run.code, 2, run.stderr);
    const error = assertEnvelope(run, "+send --file of a growing file");
    assert.equal(error.type, "validation");
    assert.match(
      error.message,
      new RegExp(`grew past ${MAX_FILE_BYTES.toLocaleString("en-US")} bytes, the most the service`),
    );
    assert.equal(uploads.length, 1, `uploads: ${uploads}`);
    assert.ok(uploads[0] <= MAX_FILE_BYTES + 2 * MiB, `the service got ${uploads[0]} bytes`);
  } finally {
    await server.shutdown();
    await home.cleanup();
  }
});

Deno.test({
  name: "+send --file refuses a pipe with no writer at once, instead of waiting on it",
  ignore: Deno.build.os === "windows",
  async fn() {
    const home = await createHarkEnv();
    try {
      const fifo = join(home.dir, "upload.fifo");
      assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
      for (const flag of ["--file", "--image"]) {
        const run = await home.run(
          ["im", "+send", "--chat-id", "oc_upload_1", flag, fifo, "--json"],
          { env: { ...ENV, HARK_BASE_URL: "http://127.0.0.1:9" }, timeoutMs: 20_000 },
        );
        assert.equal(run.code, 2, run.stderr);
        const error = assertEnvelope(run, `+send ${flag} <fifo>`);
        assert.match(error.message, /it is not a regular file \(a pipe, a device or a socket\)$/);
      }
    } finally {
      await home.cleanup();
    }
  },
});
