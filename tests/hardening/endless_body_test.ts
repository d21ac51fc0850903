/**
 * Issue 12, item 7, end to end: a hostile service on 127.0.0.1 answers with a body that never
 * ends (chunked, no Content-Length), on a business call and on the tenant-token endpoint. hark
 * stops reading at its cap (8 MiB for JSON, `MAX_JSON_BYTES` in `src/http/transport.ts`), ends
 * with a clear error (exit 1, not a crash or a timeout), and the server sees the connection
 * closed after little more than the cap was sent.
 */

import assert from "node:assert/strict";
import { MAX_JSON_BYTES } from "../../src/http/transport.ts";
import { createHarkEnv, type HarkRun } from "../support/hark_env.ts";
import { sandboxConfig } from "../support/world.ts";
import { startHostileServer } from "./_hostile_server.ts";

const CHUNK = 64 * 1024;

/** A server whose every answer is `{"code":0,"data":{"x":"aaaa…` without end; counts bytes. */
function endlessService() {
  const sent = { bytes: 0 };
  const filler = new TextEncoder().encode("a".repeat(CHUNK));
  const server = startHostileServer(() =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"code":0,"data":{"x":"'));
        },
        pull(controller) {
          // Bounded even if hark never stopped reading, so the test cannot run away.
          if (sent.bytes > 20 * MAX_JSON_BYTES) return controller.close();
          sent.bytes += filler.byteLength;
          controller.enqueue(filler);
        },
      }),
      { headers: { "content-type": "application/json" } },
    )
  );
  return { server, sent };
}

function envelope(run: HarkRun) {
  return JSON.parse(run.stderr.trim().split("\n").at(-1)!).error;
}

function assertStoppedAtCap(run: HarkRun, sent: { bytes: number }) {
  assert.equal(run.code, 1, run.stderr);
  const error = envelope(run);
  assert.equal(error.type, "invalid_response");
  assert.match(error.message, /is larger than 8 MiB; hark stopped reading it/);
  // Pipes and socket buffers hold some more than hark read: a few chunks, never the stream.
  assert.ok(sent.bytes < MAX_JSON_BYTES + 8 * 1024 * 1024, `the server sent ${sent.bytes} bytes`);
}

Deno.test("an endless answer to a business call stops at the body cap with a clear error", async () => {
  const { server, sent } = endlessService();
  const home = await createHarkEnv();
  try {
    const run = await home.run(["api", "GET", "/open-apis/authen/v1/user_info", "--json"], {
      env: { HARK_USER_ACCESS_TOKEN: "u-endless-token-0123456789", HARK_BASE_URL: server.url },
      timeoutMs: 30_000,
    });
    assertStoppedAtCap(run, sent);
    assert.equal(server.received.length, 1, "an oversized answer is not retried");
  } finally {
    await server.close();
    await home.cleanup();
  }
});

Deno.test("an endless answer from the tenant-token endpoint stops at the body cap too", async () => {
  const { server, sent } = endlessService();
  const home = await createHarkEnv({
    HARK_TEST_APP_SECRET: "endless-app-secret-0001",
    HARK_TRUSTED_ORIGINS: server.url,
  });
  try {
    await home.writeConfig(sandboxConfig({ appId: "cli_endless", baseUrl: server.url }));
    const run = await home.run(
      ["api", "GET", "/open-apis/im/v1/chats", "--as", "bot", "--json"],
      { timeoutMs: 30_000 },
    );
    assertStoppedAtCap(run, sent);
    assert.equal(server.received[0].path, "/open-apis/auth/v3/tenant_access_token/internal");
  } finally {
    await server.close();
    await home.cleanup();
  }
});
