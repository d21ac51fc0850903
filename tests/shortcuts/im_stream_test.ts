/**
 * A long chat streams: `im +messages --page-all --format ndjson` over 20,000 messages writes
 * them page by page, so it runs within a JavaScript heap far smaller than the listing (a run
 * that kept the messages would fail for want of memory: `--format table`, which keeps its rows
 * to size the columns, crashes out of memory on these 20,000 in this heap). Peak memory is
 * measured and printed. (50,000 messages showed the same for two and a half times the CPU,
 * about 16 s of the suite's.)
 * A listing whose second page fails still leaves valid JSON of the first on stdout.
 */

import assert from "node:assert/strict";
import { assertEnvelope } from "../hardening/_envelope.ts";
import { startHostileServer } from "../hardening/_hostile_server.ts";
import { createShortcutEnv } from "./_shortcut_env.ts";
import { runMeasured } from "./_peak_rss.ts";

const MESSAGES = 20_000;
/** The old-space limit the listing must run in, MiB: the messages, kept, need several times it. */
const HEAP_MIB = 16;

Deno.test({
  name: "+messages --page-all streams 20,000 messages within a 16 MiB JavaScript heap",
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

Deno.test("+messages --page-all --json whose 2nd page fails writes page 1 as valid JSON, then the error", async () => {
  const env = await createShortcutEnv({ largeChatMessages: 120 });
  // In front of the sandbox: every request passes through, except the listing's next pages.
  const pages: string[] = [];
  const front = startHostileServer(async (request, body) => {
    const url = new URL(request.url);
    if (url.pathname === "/open-apis/im/v1/messages" && request.method === "GET") {
      pages.push(url.search);
      if (url.searchParams.has("page_token")) {
        return Response.json({ code: 1254290, msg: "page 2 is broken" }, { status: 400 });
      }
    }
    const answer = await fetch(`${env.sb.baseUrl}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : body,
    });
    return new Response(await answer.arrayBuffer(), {
      status: answer.status,
      headers: { "content-type": answer.headers.get("content-type") ?? "application/json" },
    });
  });
  try {
    const chat = env.sb.chats[0].chat_id;
    const run = await env.run(["im", "+messages", "--chat-id", chat, "--page-all", "--json"], {
      env: { HARK_BASE_URL: front.url },
    });
    assert.equal(pages.length, 2, pages.join(" "));
    const read = JSON.parse(run.stdout);
    assert.equal(read.length, 50, "the first page, whole");
    assert.match(read[0].message_id, /^om_/);
    const error = assertEnvelope(run, "+messages page 2");
    assert.equal(run.code, 1);
    assert.match(error.message, /page 2 is broken/);
  } finally {
    await front.close();
    await env.close();
  }
});
