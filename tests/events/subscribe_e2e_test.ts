/**
 * `hark event +subscribe` as a subprocess against the sandbox, over loopback: the wiring (events
 * from the sandbox's state and injected ones reach stdout or files, SIGINT exits 0, the lock),
 * and the fault run: 1,000 events through 5 forced reconnects and ignored answers, none lost,
 * none written twice, counted by event id. The rules themselves are tested in `src/events/`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Sandbox, startSandbox } from "../../sandbox/mod.ts";
import { createHarkEnv, type HarkEnv } from "../support/hark_env.ts";
import { sandboxUserToken } from "../support/sandbox_token.ts";

const FAST = { PingInterval: 1, ReconnectCount: 5, ReconnectInterval: 0, ReconnectNonce: 0 };

async function post(
  sandbox: Sandbox,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(sandbox.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return await response.json();
}

async function hubStats(sandbox: Sandbox): Promise<Record<string, number>> {
  return await (await fetch(`${sandbox.baseUrl}/sandbox/event_stream`)).json();
}

async function until(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

function botEnv(sandbox: Sandbox): Record<string, string> {
  return {
    HARK_BASE_URL: sandbox.baseUrl,
    HARK_APP_ID: sandbox.appId,
    HARK_APP_SECRET: sandbox.appSecret,
  };
}

async function withWorld(
  options: Parameters<typeof startSandbox>[0],
  fn: (sandbox: Sandbox, env: HarkEnv) => Promise<void>,
): Promise<void> {
  const sandbox = await startSandbox({ eventClientConfig: FAST, ...options });
  const env = await createHarkEnv();
  try {
    await fn(sandbox, env);
  } finally {
    await env.cleanup();
    await sandbox.close();
  }
}

Deno.test("event +subscribe writes a user's message and an injected event, and exits 0 on SIGINT", async () => {
  await withWorld({}, async (sandbox, env) => {
    const live = env.start(["event", "+subscribe", "--compact"], {
      env: botEnv(sandbox),
      timeoutMs: 30_000,
    });
    await live.waitFor(/Connected/);
    const chat = sandbox.chats.find((c) => c.member_open_ids.includes(sandbox.users[0].open_id))!;
    const { accessToken } = await sandboxUserToken(sandbox);
    const sent = await env.run(
      ["im", "+send", "--as", "user", "--chat-id", chat.chat_id, "--text", "deploy?"],
      { env: { HARK_BASE_URL: sandbox.baseUrl, HARK_USER_ACCESS_TOKEN: accessToken } },
    );
    assert.equal(sent.code, 0, sent.stderr);
    await post(sandbox, "/sandbox/events", {
      event_type: "calendar.calendar.event.changed_v4",
      event: { calendar_id: "cal_1", change_type: "update" },
    });
    await until(async () => (await hubStats(sandbox)).acked === 2, "two answers");
    Deno.kill(live.pid, "SIGINT");
    const run = await live.done;
    assert.equal(run.code, 0, run.stderr);
    const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(events.map((e) => e.type), [
      "im.message.receive_v1",
      "calendar.calendar.event.changed_v4",
    ]);
    assert.equal(events[0].text, "deploy?");
    assert.equal(events[0].chat_id, chat.chat_id);
    assert.match(run.stderr, /Stopped: 2 events written/);
  });
});

Deno.test("event +subscribe refuses a second subscriber of the app, and --force runs with a warning", async () => {
  await withWorld({}, async (sandbox, env) => {
    const first = env.start(["event", "+subscribe"], { env: botEnv(sandbox), timeoutMs: 30_000 });
    await first.waitFor(/Connected/);
    const second = await env.run(["event", "+subscribe", "--json"], { env: botEnv(sandbox) });
    assert.equal(second.code, 1);
    assert.match(second.stderr, /Another hark event \+subscribe is running/);
    const forced = env.start([
      "event",
      "+subscribe",
      "--force",
      "--output-dir",
      join(env.dir, "ev"),
    ], {
      env: botEnv(sandbox),
      timeoutMs: 30_000,
    });
    await forced.waitFor(/splits events across connections/);
    await forced.waitFor(/Connected/);
    Deno.kill(forced.pid, "SIGTERM");
    Deno.kill(first.pid, "SIGTERM");
    assert.equal((await forced.done).code, 0);
    assert.equal((await first.done).code, 0);
  });
});

Deno.test("event +subscribe loses and repeats no event over 1,000 events and 5 forced reconnects", async () => {
  await withWorld({ eventAckTimeoutMs: 1000 }, async (sandbox, env) => {
    await post(sandbox, "/sandbox/event_stream/faults", {
      faults: [
        { kind: "close", after: 150, count: 4 },
        { kind: "drop", after: 150, count: 1 },
        { kind: "ignore_acks", count: 20 },
        { kind: "split", parts: 3, count: 50 },
      ],
    });
    const live = env.start(["event", "+subscribe", "--quiet"], {
      env: botEnv(sandbox),
      timeoutMs: 60_000,
    });
    const injected = await post(sandbox, "/sandbox/events", {
      event_type: "im.message.receive_v1",
      event: { message: { message_id: "om_x", content: '{"text":"x"}', message_type: "text" } },
      count: 1000,
    });
    const expected = new Set(injected.event_ids as string[]);
    try {
      await until(
        async () => (await hubStats(sandbox)).pending === 0,
        "every event answered",
        20_000,
      );
    } catch (error) {
      Deno.kill(live.pid, "SIGKILL");
      const run = await live.done;
      throw new Error(`${JSON.stringify(await hubStats(sandbox))}\n${run.stderr.slice(-3000)}`, {
        cause: error,
      });
    }
    Deno.kill(live.pid, "SIGINT");
    const run = await live.done;
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const ids = run.stdout.trim().split("\n").map((line) => JSON.parse(line).id);
    const stats = await hubStats(sandbox);
    assert.equal(expected.size, 1000);
    assert.equal(new Set(ids).size, ids.length, "an event was written twice");
    assert.deepEqual(new Set(ids), expected);
    assert.ok(stats.accepted >= 6, `only ${stats.accepted} connections`);
    assert.ok(stats.delivered > 1000, "nothing was delivered again");
    console.log(
      `fault run: ${ids.length} written, ${ids.length - new Set(ids).size} duplicated, ` +
        `${
          1000 - ids.filter((id) => expected.has(id)).length
        } lost, ${stats.delivered} deliveries, ` +
        `${stats.accepted - 1} reconnects`,
    );
  });
});
