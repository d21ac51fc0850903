/**
 * `hark api` end to end against the sandbox, with the user token injected through
 * `HARK_USER_ACCESS_TOKEN`. The runs are in process (`runInProcess`: the same command code,
 * output, retries and network, on a clock that never waits); two are real hark processes, the
 * wiring: a GET, and a body read from a piped stdin.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Sandbox } from "../../sandbox/mod.ts";
import type { FaultSpec, LoggedRequest } from "../../sandbox/mod.ts";
import type { HarkEnv, HarkRun } from "../support/hark_env.ts";
import { sandboxUserToken } from "../support/sandbox_token.ts";
import { type InProcessOptions, startWorld } from "../support/world.ts";

const USER_INFO = "/open-apis/authen/v1/user_info";
const MESSAGES = "/open-apis/im/v1/messages";

interface Harness {
  sb: Sandbox;
  /** The home; its `run` is a real hark process with the token. */
  env: HarkEnv;
  /** Runs `hark <args>` in process with the token (unless `token` is false). */
  run(args: string[], options?: InProcessOptions & { token?: boolean }): Promise<HarkRun>;
  token: string;
  fault(spec: FaultSpec): Promise<void>;
  requests(path: string): Promise<LoggedRequest[]>;
}

async function withHark(
  test: (h: Harness) => Promise<void>,
  scopes?: string[],
): Promise<void> {
  const world = await startWorld({ env: (sb) => ({ HARK_BASE_URL: sb.baseUrl }) });
  const { sb, home } = world;
  try {
    const granted = await sandboxUserToken(sb, { scopes });
    const env: HarkEnv = {
      ...home,
      run: (args, options = {}) =>
        home.run(args, {
          ...options,
          env: { HARK_USER_ACCESS_TOKEN: granted.accessToken, ...options.env },
        }),
    };
    await fetch(`${sb.baseUrl}/sandbox/requests`, { method: "DELETE" }).then((r) =>
      r.body?.cancel()
    );
    await test({
      sb,
      env,
      run: (args, { token = true, ...options } = {}) =>
        world.runInProcess(args, {
          ...options,
          env: {
            ...(token ? { HARK_USER_ACCESS_TOKEN: granted.accessToken } : {}),
            ...options.env,
          },
        }),
      token: granted.accessToken,
      async fault(spec) {
        const response = await fetch(`${sb.baseUrl}/sandbox/faults`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(spec),
        });
        assert.equal(response.status, 200, await response.text());
      },
      async requests(path) {
        const log: LoggedRequest[] = await (await fetch(`${sb.baseUrl}/sandbox/requests`)).json();
        return log.filter((r) => r.path === path);
      },
    });
  } finally {
    await world.close();
  }
}

Deno.test("hark api GET prints the data of the answer", async () => {
  await withHark(async ({ sb, env }) => {
    const run = await env.run(["api", "GET", USER_INFO]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).open_id, sb.users[0].open_id);
  });
});

Deno.test("hark api --dry-run prints the request, sends nothing, and needs no sign-in", async () => {
  await withHark(async ({ sb, env, run, requests }) => {
    const globalRun = await run(["--dry-run", "api", "GET", USER_INFO], { token: false });
    assert.equal(globalRun.code, 0, globalRun.stderr);
    assert.equal(JSON.parse(globalRun.stdout).headers.Authorization, "Bearer ****");
    const dry = await env.run(
      [
        "api",
        "post",
        "im/v1/messages",
        "--params",
        '{"receive_id_type":"chat_id"}',
        "--data",
        "-",
        "--dry-run",
      ],
      {
        stdin: '{"receive_id":"oc_1","msg_type":"text"}',
        env: { HARK_USER_ACCESS_TOKEN: undefined },
      },
    );
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(JSON.parse(dry.stdout), {
      method: "POST",
      url: `${sb.baseUrl}${MESSAGES}?receive_id_type=chat_id`,
      query: { receive_id_type: "chat_id" },
      headers: JSON.parse(dry.stdout).headers,
      body: { receive_id: "oc_1", msg_type: "text" },
    });
    assert.equal(JSON.parse(dry.stdout).headers["Content-Type"], "application/json; charset=utf-8");
    const log: LoggedRequest[] = await (await fetch(`${sb.baseUrl}/sandbox/requests`)).json();
    assert.deepEqual(log.filter((r) => r.path.startsWith("/open-apis/")), []);
    assert.deepEqual(await requests(MESSAGES), []);
  });
});

Deno.test("hark api reports a missing scope with the upgrade command, exit 1", async () => {
  await withHark(async ({ sb, run: hark }) => {
    const run = await hark([
      "api",
      "POST",
      `${MESSAGES}?receive_id_type=chat_id`,
      "--data",
      JSON.stringify({
        receive_id: sb.chats[0].chat_id,
        msg_type: "text",
        content: '{"text":"x"}',
      }),
      "--json",
    ]);
    assert.equal(run.code, 1, run.stderr);
    const { error } = JSON.parse(run.stderr);
    assert.equal(error.type, "permission");
    assert.equal(error.code, 1);
    assert.match(error.recovery.command, /^hark auth login --scope im:message\.send_as_user\b/);
  }, ["calendar:calendar.event:read"]);
});

Deno.test("hark api retries 5xx and posts a message once across a dropped answer", async () => {
  await withHark(async ({ sb, env, run, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "status", status: 500, times: 2 });
    const info = await run(["api", "GET", USER_INFO]);
    assert.equal(info.code, 0, info.stderr);
    assert.equal((await requests(USER_INFO)).length, 3);

    await fault({ route: `POST ${MESSAGES}`, kind: "drop", stage: "after", times: 1 });
    const paramsFile = join(env.dir, "params.json");
    await Deno.writeTextFile(paramsFile, '{"receive_id_type": "chat_id"}');
    const uuid = "api-command-uuid-1";
    const body = {
      receive_id: sb.chats[0].chat_id,
      msg_type: "text",
      content: JSON.stringify({ text: "from hark api" }),
      uuid,
    };
    const send = await run(
      [
        "api",
        "POST",
        MESSAGES,
        "--params",
        `@${paramsFile}`,
        "--data",
        "-",
        "--idempotency-key",
        uuid,
      ],
      { stdin: JSON.stringify(body) },
    );
    assert.equal(send.code, 0, send.stderr);
    assert.match(JSON.parse(send.stdout).message_id, /^om_/);
    assert.equal((await requests(MESSAGES)).length, 2);
    const messages: { uuid: string | null }[] =
      await (await fetch(`${sb.baseUrl}/sandbox/messages`)).json();
    assert.equal(messages.filter((m) => m.uuid === uuid).length, 1);
  });
});

Deno.test("hark api ends a rejected environment token as an auth error, exit 3", async () => {
  await withHark(async ({ run: hark, fault, requests }) => {
    await fault({ route: USER_INFO, kind: "status", status: 401, times: 1 });
    const run = await hark(["api", "GET", USER_INFO, "--json"]);
    assert.equal(run.code, 3, run.stderr);
    assert.equal(JSON.parse(run.stderr).error.code, 3);
    assert.equal((await requests(USER_INFO)).length, 1);
  });
});

Deno.test("hark api --debug logs each request and answer with the token masked", async () => {
  await withHark(async ({ run: hark, token, fault }) => {
    await fault({ route: USER_INFO, kind: "status", status: 503, times: 1 });
    const run = await hark(["api", "GET", USER_INFO, "--debug"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\[debug\] → GET http:\/\/127\.0\.0\.1:\d+\/open-apis\/authen/);
    assert.match(run.stderr, /\[debug\] ← 503 GET .* code=500000/);
    assert.match(run.stderr, /\[debug\] ↻ retry 1\/3/);
    assert.match(run.stderr, /\[debug\] ← 200 GET .* code=0/);
    assert.ok(!run.stderr.includes(token), "the token leaked into the debug log");
  });
});

Deno.test("hark api rejects a bad method and bad JSON with exit 2", async () => {
  await withHark(async ({ run, requests }) => {
    const [method, json] = await Promise.all([
      run(["api", "FETCH", USER_INFO]),
      run(["api", "POST", MESSAGES, "--data", '{"a": tru}', "--json"]),
    ]);
    assert.equal(method.code, 2);
    assert.match(method.stderr, /Invalid method "FETCH"/);
    assert.equal(json.code, 2);
    const { error } = JSON.parse(json.stderr);
    assert.match(error.message, /^Invalid JSON in --data at line 1, column \d+/);
    assert.deepEqual(await requests(MESSAGES), []);
  });
});
