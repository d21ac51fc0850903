/**
 * Issue 21, High 1: a config file can no longer pull other configs' secrets or any environment
 * variable and send them to its own server. The user's own set-up (a default config signed in
 * with `config init` and `auth login`, a second config with its own namespace, `GITHUB_TOKEN` in
 * the environment) meets hostile config files (a repository's config, a shared template, a file
 * in /tmp) that point at a logging server on 127.0.0.1. Whatever they refer to and whatever is
 * run (`--as bot im +chats`, the tenant token, device authorization with Basic auth), nothing
 * reaches that server, and the error names the file, the setting and the fix. The same server
 * trusted outside the config file (`HARK_TRUSTED_ORIGINS`) does receive an `@env:` secret: the
 * gate is that trust, not an accident of the set-up.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Sandbox, startSandbox } from "../../sandbox/mod.ts";
import { FileKeychain } from "../../src/keychain/file_keychain.ts";
import { realFileSystem } from "../../src/runtime/real_file_system.ts";
import { createTestContext } from "../support/test_context.ts";
import {
  createHarkEnv,
  type HarkEnv,
  type HarkRun,
  TEST_KEYCHAIN_PASSWORD,
} from "../support/hark_env.ts";
import { type HostileServer, startHostileServer } from "./_hostile_server.ts";

/** A value only the environment holds: what `@env:GITHUB_TOKEN` would steal. */
const GITHUB_TOKEN = "ghp_hark_test_0123456789abcdefghijklmnopqrstuv";

/** The user's set-up: the default config signed in, a second config, the secrets they hold. */
interface Victim {
  sb: Sandbox;
  home: HarkEnv;
  /** Runs hark with the default config (no HARK_CONFIG). */
  runDefault(args: string[]): Promise<HarkRun>;
  /** The second config's keychain namespace. */
  namespace: string;
  /** Every secret of the set-up, with what it is. */
  secrets: Map<string, string>;
  close(): Promise<void>;
}

async function victim(): Promise<Victim> {
  const sb = await startSandbox({ quiet: true, interval: 1, autoApproveAfter: 0 });
  const home = await createHarkEnv({ GITHUB_TOKEN });
  const runDefault = (args: string[], stdin?: string) =>
    home.run(args, { env: { HARK_CONFIG: undefined }, stdin });
  const second = join(home.dir, "work", "second.json");
  const runSecond = (args: string[], stdin?: string) =>
    home.run(args, { env: { HARK_CONFIG: second }, stdin });
  const init = ["config", "init", "--non-interactive", "--app-id", sb.appId, "--app-secret-stdin"];
  try {
    const first = await runDefault([...init, "--base-url", sb.baseUrl], sb.appSecret);
    assert.equal(first.code, 0, first.stderr);
    const login = await runDefault(["auth", "login", "--json", "--wait", "1h"]);
    assert.equal(login.code, 0, login.stderr);
    await Deno.mkdir(join(home.dir, "work"), { mode: 0o700 });
    const other = await runSecond(
      [...init, "--base-url", sb.baseUrl],
      "the-second-config-s-app-secret",
    );
    assert.equal(other.code, 0, other.stderr);
    const { keychain_namespace: namespace } = JSON.parse(await Deno.readTextFile(second));

    const keychain = new FileKeychain({
      ...createTestContext({
        env: {
          HARK_DATA_DIR: home.env.HARK_DATA_DIR,
          HARK_KEYCHAIN_PASSWORD: TEST_KEYCHAIN_PASSWORD,
        },
      }),
      fs: realFileSystem,
    });
    const record = JSON.parse((await keychain.get("hark/default/user_token"))!);
    const secrets = new Map<string, string>([
      [record.access_token, "the default config's access token"],
      [record.refresh_token, "the default config's refresh token"],
      [sb.appSecret, "the default profile's app secret"],
      ["the-second-config-s-app-secret", "the second config's app secret"],
      [GITHUB_TOKEN, "GITHUB_TOKEN"],
    ]);
    return {
      sb,
      home,
      runDefault,
      namespace,
      secrets,
      async close() {
        await home.cleanup();
        await sb.close();
      },
    };
  } catch (error) {
    await home.cleanup();
    await sb.close();
    throw error;
  }
}

/** A server that logs everything and answers as a Lark that refuses the app would. */
function loggingServer(): HostileServer {
  return startHostileServer((request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith("/tenant_access_token/internal")) {
      return Response.json({ code: 10003, msg: "invalid app_secret" });
    }
    if (path.endsWith("/device_authorization")) {
      return Response.json({ error: "invalid_client" }, { status: 401 });
    }
    return Response.json({ code: 99991663, msg: "invalid token" }, { status: 401 });
  });
}

/** The commands that carry the app secret: a bot shortcut, the tenant token, a sign-in. */
const COMMANDS: string[][] = [
  ["--as", "bot", "im", "+chats", "--json"],
  ["auth", "token", "--as", "bot", "--json"],
  ["auth", "login", "--no-wait", "--json"],
];

/** Which of the set-up's secrets a text holds. */
function leaked(text: string, secrets: Map<string, string>): string[] {
  return [...secrets].filter(([secret]) => text.includes(secret)).map(([, what]) => what);
}

interface HostileCase {
  why: string;
  config: (v: Victim, server: HostileServer) => Record<string, unknown>;
  /** What the error must say. */
  message: (path: string) => RegExp;
  code: number;
}

const CASES: HostileCase[] = [
  {
    why: "the default config's token record as the app secret",
    config: (v, server) => app(v, server, "@keychain:hark/default/user_token"),
    message: (path) =>
      new RegExp(
        `^Refusing apps\\.default\\.app_secret in "${RegExp.escape(path)}": ` +
          `"@keychain:hark/default/user_token" is not an entry of this config file`,
      ),
    code: 2,
  },
  {
    why: "the default profile's app secret",
    config: (v, server) => app(v, server, "@keychain:hark/default/app_secret"),
    message: (path) =>
      new RegExp(`^Refusing apps\\.default\\.app_secret in "${RegExp.escape(path)}"`),
    code: 2,
  },
  {
    why: "GITHUB_TOKEN from the environment",
    config: (v, server) => app(v, server, "@env:GITHUB_TOKEN"),
    message: (path) =>
      new RegExp(
        `^Refusing to send apps\\.default\\.app_secret \\("@env:GITHUB_TOKEN"\\) to ` +
          `"http://127\\.0\\.0\\.1:\\d+" \\(named by "${RegExp.escape(path)}"\\): a secret ` +
          "from the environment goes only to Lark's services",
      ),
    code: 3,
  },
  {
    why: "another config's namespace, claimed, with its app secret",
    config: (v, server) => ({
      ...app(v, server, `@keychain:hark/${v.namespace}/default/app_secret`),
      keychain_namespace: v.namespace,
    }),
    message: (path) =>
      new RegExp(
        `^Refusing to send the app secret of profile "default" to "http://127\\.0\\.0\\.1:\\d+" ` +
          `\\(named by "${
            RegExp.escape(path)
          }"\\): it was stored for "http://127\\.0\\.0\\.1:\\d+"`,
      ),
    code: 3,
  },
];

function app(v: Victim, server: HostileServer, secret: string): Record<string, unknown> {
  return {
    apps: { default: { app_id: v.sb.appId, app_secret: secret, base_url: server.url } },
  };
}

Deno.test("a hostile config file sends none of the user's secrets to its own server", async () => {
  const v = await victim();
  const server = loggingServer();
  try {
    const hostileDir = await Deno.makeTempDir({ dir: v.home.dir, prefix: "repo-" });
    const failures: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const path = join(hostileDir, `hostile-${i}.json`);
      await Deno.writeTextFile(path, JSON.stringify(c.config(v, server)), { mode: 0o600 });
      for (const args of COMMANDS) {
        const run = await v.home.run(args, { env: { HARK_CONFIG: path } });
        const label = `${c.why}: hark ${args.join(" ")}`;
        try {
          assert.equal(run.code, c.code, `exit ${run.code}: ${run.stderr}`);
          const error = JSON.parse(run.stderr).error;
          assert.match(error.message, c.message(path));
          assert.ok(error.recovery.suggestion.length > 0);
          assert.deepEqual(leaked(run.stdout + run.stderr, v.secrets), []);
        } catch (error) {
          failures.push(`${label}: ${(error as Error).message}`);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(leaked(server.transcript(), v.secrets), [], "secrets reached the server");
    assert.equal(server.received.length, 0, "nothing was sent to the config's server at all");

    // The user's own config still works as before.
    const own = await v.runDefault(["--as", "bot", "im", "+chats", "--json"]);
    assert.equal(own.code, 0, own.stderr);
  } finally {
    await server.close();
    await v.close();
  }
});

Deno.test("an origin trusted outside the config file is what lets an @env: secret go there", async () => {
  const v = await victim();
  const server = loggingServer();
  try {
    const path = join(v.home.dir, "private-deployment.json");
    await Deno.writeTextFile(path, JSON.stringify(app(v, server, "@env:GITHUB_TOKEN")), {
      mode: 0o600,
    });
    const refused = await v.home.run(COMMANDS[1], { env: { HARK_CONFIG: path } });
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(JSON.parse(refused.stderr).error.recovery.suggestion, /HARK_TRUSTED_ORIGINS=/);
    assert.equal(server.received.length, 0);

    // A loopback address is no exception, but the user may trust it explicitly.
    const trusted = await v.home.run(COMMANDS[1], {
      env: { HARK_CONFIG: path, HARK_TRUSTED_ORIGINS: `https://open.example.com, ${server.url}` },
    });
    assert.equal(trusted.code, 3, trusted.stderr);
    assert.match(JSON.parse(trusted.stderr).error.message, /Cannot get a tenant token/);
    assert.equal(server.received.length, 1);
    assert.deepEqual(leaked(server.transcript(), v.secrets), ["GITHUB_TOKEN"]);
  } finally {
    await server.close();
    await v.close();
  }
});
