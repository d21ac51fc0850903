/**
 * Issue 21, Medium 4, end to end: the download cap (100 MiB, `MAX_DOWNLOAD_BYTES`) counts the
 * bytes actually written, not what `Content-Length` says. A hostile service on 127.0.0.1 sends a
 * chunked body under `Content-Length: 10`, and a gzip body whose `Content-Length` is its small
 * compressed size; hark stops at the announced length or the cap, leaves no file (temporary or
 * not), says why (exit 1, not a crash), and does not ask again: a download that failed on its
 * size is never retried. Each server stops by itself a little past the cap, so a hark that kept
 * reading could not run away.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { MAX_DOWNLOAD_BYTES } from "../../src/http/download.ts";
import { createHarkEnv, type HarkEnv, type HarkRun } from "../support/hark_env.ts";
import { startHostileServer, startRawServer } from "./_hostile_server.ts";

const MiB = 1024 * 1024;
/** What each hostile server sends at most: the cap and 1 MiB more. */
const BOUND = MAX_DOWNLOAD_BYTES + MiB;
const CHUNK = 64 * 1024;

function envelope(run: HarkRun) {
  return JSON.parse(run.stderr.trim().split("\n").at(-1)!).error;
}

async function download(home: HarkEnv, baseUrl: string, dir: string): Promise<HarkRun> {
  return await home.run(
    [
      "im",
      "+download",
      "--message-id",
      "om_cap_1",
      "--key",
      "file_v3_cap",
      "--output",
      join(dir, "report.pdf"),
      "--json",
    ],
    {
      env: { HARK_USER_ACCESS_TOKEN: "u-cap-token-0123456789", HARK_BASE_URL: baseUrl },
      timeoutMs: 60_000,
    },
  );
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("a chunked body under Content-Length: 10 stops at 10 bytes: no file, no retry", async () => {
  const sent = { bytes: 0 };
  const server = startRawServer(async (write) => {
    await write(
      "HTTP/1.1 200 OK\r\ncontent-type: application/pdf\r\ncontent-length: 10\r\n" +
        "transfer-encoding: chunked\r\n\r\n",
    );
    const chunk = new Uint8Array(CHUNK).fill(0x41);
    while (sent.bytes < BOUND) {
      await write(`${CHUNK.toString(16)}\r\n`);
      await write(chunk);
      await write("\r\n");
      sent.bytes += CHUNK;
    }
    await write("0\r\n\r\n");
  });
  const home = await createHarkEnv();
  const dir = join(home.dir, "downloads");
  await Deno.mkdir(dir);
  try {
    const run = await download(home, server.url, dir);
    assert.equal(run.code, 1, run.stderr);
    const error = envelope(run);
    assert.equal(error.type, "invalid_response");
    assert.match(error.message, /went on past the 10 bytes its Content-Length announced/);
    assert.deepEqual(await names(dir), [], "no file and no temporary file is left");
    assert.equal(server.connections, 1, "a download that failed on its size is not retried");
    // Socket buffers hold some more than hark read: a few MiB, never the body.
    assert.ok(sent.bytes < 16 * MiB, `the server got to send ${sent.bytes} bytes`);
  } finally {
    await server.close();
    await home.cleanup();
  }
});

Deno.test("a gzip body with a small Content-Length stops at the cap, counted decompressed: no file, no retry", async () => {
  // The cap and 1 MiB more of zeros compress to about 100 KiB: the Content-Length hark sees.
  const gzip = new Uint8Array(
    await new Response(
      new Blob([new Uint8Array(BOUND)]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  assert.ok(gzip.length < MiB, `${gzip.length} bytes compressed`);
  const server = startHostileServer(() =>
    new Response(gzip, {
      headers: {
        "content-type": "application/octet-stream",
        "content-encoding": "gzip",
        "content-length": String(gzip.length),
      },
    })
  );
  const home = await createHarkEnv();
  const dir = join(home.dir, "downloads");
  await Deno.mkdir(dir);
  try {
    const run = await download(home, server.url, dir);
    assert.equal(run.code, 1, run.stderr);
    const error = envelope(run);
    assert.equal(error.type, "invalid_response");
    assert.match(error.message, /is larger than 100 MiB; hark stopped reading it/);
    assert.deepEqual(await names(dir), [], "no file and no temporary file is left");
    assert.equal(server.received.length, 1, "a download that failed on its size is not retried");
  } finally {
    await server.close();
    await home.cleanup();
  }
});

Deno.test("a gzip body under the cap is saved whole, decompressed, though its Content-Length is smaller", async () => {
  const content = new TextEncoder().encode("quarterly numbers\n".repeat(50_000));
  const gzip = new Uint8Array(
    await new Response(
      new Blob([content]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  const server = startHostileServer(() =>
    new Response(gzip, {
      headers: { "content-type": "text/plain", "content-encoding": "gzip" },
    })
  );
  const home = await createHarkEnv();
  const dir = join(home.dir, "downloads");
  await Deno.mkdir(dir);
  try {
    const run = await download(home, server.url, dir);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).bytes, content.length);
    assert.deepEqual(await Deno.readFile(join(dir, "report.pdf")), content);
    assert.deepEqual(await names(dir), ["report.pdf"]);
  } finally {
    await server.close();
    await home.cleanup();
  }
});
