/**
 * Issue 12, low item, end to end: a hostile service on 127.0.0.1 that never stops paging. With a
 * new page token every time, `--page-all` stops after `--max-pages` with a warning and the rows
 * read so far; with the same page token again, hark stops at once with an error, never looping.
 */

import assert from "node:assert/strict";
import { createHarkEnv } from "../support/hark_env.ts";
import { larkOk, startHostileServer } from "./_hostile_server.ts";

const TOKEN = { HARK_USER_ACCESS_TOKEN: "u-paging-token-0123456789" };

/** One user per page; `nextToken` makes the page token of the answer to the `n`th request. */
function pagingService(nextToken: (n: number) => string) {
  let n = 0;
  return startHostileServer(() => {
    n += 1;
    return larkOk({
      users: [{ name: `User ${n}`, open_id: `ou_${String(n).padStart(32, "0")}` }],
      has_more: true,
      page_token: nextToken(n),
    });
  }, { maxRequests: 100 });
}

Deno.test("--page-all against a service that never ends stops at --max-pages with a warning", async () => {
  const server = pagingService((n) => `page-${n}`);
  const home = await createHarkEnv();
  try {
    const run = await home.run(
      ["contact", "+search-user", "--query", "a", "--page-all", "--max-pages", "5", "--json"],
      { env: { ...TOKEN, HARK_BASE_URL: server.url }, timeoutMs: 30_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(server.received.length, 5);
    assert.equal(JSON.parse(run.stdout).length, 5);
    assert.match(run.stderr, /Stopped after 5 pages \(--max-pages\)/);
  } finally {
    await server.close();
    await home.cleanup();
  }
});

Deno.test("--page-all against a service that repeats a page token stops with an error", async () => {
  const server = pagingService(() => "same-token");
  const home = await createHarkEnv();
  try {
    const run = await home.run(
      ["contact", "+search-user", "--query", "a", "--page-all", "--json"],
      { env: { ...TOKEN, HARK_BASE_URL: server.url }, timeoutMs: 30_000 },
    );
    assert.equal(server.received.length, 2, "the repeated token is never asked for twice");
    assert.notEqual(run.code, 0);
    const error = JSON.parse(run.stderr.trim().split("\n").at(-1)!).error;
    assert.match(error.message, /page token it had given before/);
    // What was read before the service repeated itself is still written, as valid JSON.
    assert.equal(JSON.parse(run.stdout).length, 2);
  } finally {
    await server.close();
    await home.cleanup();
  }
});
