/**
 * A long chat streams: `im +messages --page-all --format ndjson` over 50,000 messages writes
 * them page by page, so it runs within a JavaScript heap far smaller than the listing (a run
 * that kept the messages would fail for want of memory). Peak memory is measured and printed.
 */

import assert from "node:assert/strict";
import { createShortcutEnv } from "./_shortcut_env.ts";
import { runMeasured } from "./_peak_rss.ts";

const MESSAGES = 50_000;
/** The old-space limit the listing must run in, MiB: its NDJSON alone is about 50 MB. */
const HEAP_MIB = 16;

Deno.test({
  name: "+messages --page-all streams 50,000 messages within a 16 MiB JavaScript heap",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const env = await createShortcutEnv({ largeChatMessages: MESSAGES });
    try {
      const runEnv = { ...env.hark.env, HARK_USER_ACCESS_TOKEN: env.token };
      const chat = env.sb.chats[0].chat_id;
      const listing = (limit: string[], flags: string[] = []) =>
        runMeasured(
          ["im", "+messages", "--chat-id", chat, ...limit, "--format", "ndjson"],
          runEnv,
          flags,
        );
      const small = await listing(["--limit", "1000"]);
      assert.equal(small.code, 0, small.stderr);
      await env.clearRequests();
      const all = await listing(["--page-all"], [`--v8-flags=--max-old-space-size=${HEAP_MIB}`]);
      assert.equal(all.code, 0, all.stderr.slice(0, 2000));
      const lines = all.stdout.split("\n").filter((line) => line !== "");
      assert.equal(lines.length, MESSAGES);
      const first = JSON.parse(lines[0]);
      const last = JSON.parse(lines.at(-1)!);
      assert.ok(Date.parse(first.create_time) > Date.parse(last.create_time), "newest first");
      assert.equal((await env.requests()).length, MESSAGES / 50, "one request per page of 50");
      const version = await runMeasured(["--version"], runEnv);
      console.log(
        `peak RSS (${all.how}): --version ${Math.round(version.peakKiB / 1024)} MiB; ` +
          `1,000 messages ${Math.round(small.peakKiB / 1024)} MiB; ${MESSAGES} messages ` +
          `${Math.round(all.peakKiB / 1024)} MiB with a ${HEAP_MIB} MiB heap; ` +
          `${Math.round(all.stdout.length / 1e6)} MB of NDJSON`,
      );
    } finally {
      await env.close();
    }
  },
});
