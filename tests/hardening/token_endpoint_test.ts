/**
 * The sign-in endpoints under attack and failure: a hostile device authorization that asks for a
 * 99999 s poll interval (issue 12, item 8), and the token and tenant-token endpoints answering
 * 429, dropping, truncating, or refusing a refresh with Lark's numeric codes (issue 12, low;
 * issue 11). Every outcome is classified as a business call's would be.
 *
 * The runs are in process ({@link runInProcess}: the same command code, keychain and network as a
 * hark process, on a clock that does not wait, so a retry's back-off costs nothing): what they
 * check is how an answer is classified, which the process adds nothing to. One refresh refused
 * for good (code 20026, no retry, no wait) stays a real hark process, as the wiring.
 */

import assert from "node:assert/strict";
import { createHarkEnv, type HarkRun } from "../support/hark_env.ts";
import { control, requestLog, runInProcess, sandboxConfig, startWorld } from "../support/world.ts";
import { startHostileServer } from "./_hostile_server.ts";

const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";
const TENANT_PATH = "/open-apis/auth/v3/tenant_access_token/internal";

function envelope(run: HarkRun) {
  return JSON.parse(run.stderr.trim().split("\n").at(-1)!).error;
}

Deno.test("a device flow asking for a 99999 s interval stops when its code expires", async () => {
  const hostile = startHostileServer((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/oauth/v1/device_authorization") {
      return Response.json({
        device_code: "dc-hostile",
        user_code: "HOST-ILE0",
        verification_uri: "https://example.com/verify",
        expires_in: 3,
        interval: 99_999,
      });
    }
    return Response.json({ error: "authorization_pending" }, { status: 400 });
  });
  const home = await createHarkEnv({
    HARK_TEST_APP_SECRET: "s3cret",
    HARK_TRUSTED_ORIGINS: hostile.url,
  });
  try {
    await home.writeConfig(sandboxConfig({ appId: "cli_x", baseUrl: hostile.url }));
    // In process, on a clock that does not wait: the cap and the expiry are
    // src/auth/device_flow_test.ts's rules; this is the hostile answer's way through login.
    const run = await runInProcess(home, ["auth", "login", "--json", "--wait", "1h"]);
    const waited = run.sleeps.reduce((sum, ms) => sum + ms, 0);
    assert.equal(run.code, 3, run.stderr);
    assert.match(envelope(run).message, /expired before it was approved/);
    // It slept until the code expired (3 s), not 60 s or 99999 s, and never polled a dead code.
    assert.equal(waited, 3_000);
    assert.ok(!hostile.received.some((r) => r.path === TOKEN_PATH), hostile.transcript());
  } finally {
    await hostile.close();
    await home.cleanup();
  }
});

/** One failure of the token endpoint during a refresh, and what it must end as. */
interface RefreshCase {
  name: string;
  fault: Record<string, unknown>;
  code: number;
  type: string;
  message?: RegExp;
  command?: string;
  /** Refresh requests expected at the token endpoint. */
  attempts?: number;
}

const REFRESH_CASES: RefreshCase[] = [
  {
    name: "429",
    fault: { kind: "status", status: 429, retry_after: 1 },
    code: 1,
    type: "rate_limit",
  },
  { name: "dropped", fault: { kind: "drop" }, code: 4, type: "network" },
  { name: "truncated", fault: { kind: "truncated" }, code: 1, type: "invalid_response" },
  { name: "malformed", fault: { kind: "malformed" }, code: 1, type: "invalid_response" },
  ...[20026, 20037, 20064, 20073].map((larkCode): RefreshCase => ({
    name: `code ${larkCode}`,
    fault: { kind: "status", status: 400, code: larkCode, msg: `refresh refused ${larkCode}` },
    code: 3,
    type: "auth",
    message: new RegExp(`Session expired .*code ${larkCode}: refresh refused ${larkCode}`),
    command: "hark auth login",
  })),
  {
    name: "code 20050 twice",
    fault: { kind: "status", status: 400, code: 20050, msg: "busy" },
    code: 1,
    type: "server_error",
    attempts: 2,
  },
];

Deno.test("a refresh's failures end as a business call's would, and dead refresh tokens ask for a sign-in", async () => {
  const world = await startWorld();
  try {
    // A token within 5 minutes of expiry: `auth token` refreshes it first.
    const login = await world.signIn({ accessTokenTtl: 60 });
    assert.equal(login.code, 0, login.stderr);
    const failures: string[] = [];
    let spent = false;
    for (const c of REFRESH_CASES) {
      // A refresh refused for good is remembered (needs_login) and never sent again: the next
      // case starts from a new sign-in.
      if (spent) assert.equal((await world.signIn({ accessTokenTtl: 60 })).code, 0);
      spent = c.code === 3;
      await fetch(`${world.sb.baseUrl}/sandbox/requests`, { method: "DELETE" }).then((r) =>
        r.body?.cancel()
      );
      await control(world.sb, "/sandbox/faults", [{ ...c.fault, route: `POST ${TOKEN_PATH}` }]);
      // One as a real hark process (the wiring), the others in process (the same code).
      const run = c.name === "code 20026"
        ? await world.run(["auth", "token", "--json"])
        : await world.runInProcess(["auth", "token", "--json"]);
      await fetch(`${world.sb.baseUrl}/sandbox/faults`, { method: "DELETE" }).then((r) =>
        r.body?.cancel()
      );
      try {
        assert.equal(run.code, c.code, run.stderr);
        const error = envelope(run);
        assert.equal(error.type, c.type);
        if (c.message) assert.match(error.message, c.message);
        if (c.command) assert.equal(error.recovery.command, c.command);
        if (c.attempts !== undefined) {
          const refreshes = (await requestLog(world.sb)).filter((r) => r.path === TOKEN_PATH);
          assert.equal(refreshes.length, c.attempts, "refresh attempts");
        }
      } catch (error) {
        failures.push(`${c.name}: ${(error as Error).message}`);
      }
    }
    // Busy once (20050) is retried, and the refresh then succeeds. (A new sign-in first: the
    // truncated answer above was served, so its refresh token is spent, as with Lark.)
    assert.equal((await world.signIn({ accessTokenTtl: 60 })).code, 0);
    await control(world.sb, "/sandbox/faults", [
      { route: `POST ${TOKEN_PATH}`, kind: "status", status: 500, code: 20050, times: 1 },
    ]);
    const busyOnce = await world.runInProcess(["auth", "token"]);
    if (busyOnce.code !== 0) failures.push(`code 20050 once: ${busyOnce.stderr}`);
    assert.deepEqual(failures, []);
  } finally {
    await world.close();
  }
});

Deno.test("the tenant-token endpoint's 429 is a rate limit (exit 1), not a refusal of the app", async () => {
  const world = await startWorld();
  try {
    await control(world.sb, "/sandbox/faults", [
      { route: `POST ${TENANT_PATH}`, kind: "status", status: 429, retry_after: 1 },
    ]);
    const run = await world.runInProcess([
      "api",
      "GET",
      "/open-apis/im/v1/chats",
      "--as",
      "bot",
      "--json",
    ]);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(envelope(run).type, "rate_limit");
  } finally {
    await world.close();
  }
});
