import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext, type TestContext } from "../../tests/support/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import { MemoryKeychain } from "../keychain/memory_keychain.ts";
import type { GlobalOptions } from "./global_options.ts";
import { openSession, type ProfileUse, type Session } from "./session.ts";

/** Opens a session with the given global options (the rest as with no global flag). */
async function open(
  ctx: TestContext,
  globals: Partial<GlobalOptions>,
  profile: ProfileUse = "use",
): Promise<Session> {
  const all: GlobalOptions = { json: false, dryRun: false, color: true, debug: false, ...globals };
  return await openSession(ctx, all, { profile });
}

async function withConfig(text: string | undefined, fn: (path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "hark-session-test-" });
  try {
    const path = join(dir, "config.json");
    if (text !== undefined) await Deno.writeTextFile(path, text);
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("openSession() loads the config and picks the profile from the flags", async () => {
  const config = {
    active_profile: "work",
    apps: { work: { app_id: "cli_w" } },
    preferences: { output_format: "csv" },
  };
  await withConfig(JSON.stringify(config), async (path) => {
    const ctx = createTestContext({ env: { HARK_CONFIG: path } });
    const session = await open(ctx, { color: false });
    assert.equal(session.ctx, ctx);
    assert.equal(session.configPath, path);
    assert.deepEqual(session.config, config);
    assert.equal(session.profile, "work");
    assert.deepEqual(session.output, {
      format: undefined,
      color: false,
      preferences: { output_format: "csv" },
      csvRaw: false,
    });
    assert.equal((await open(ctx, { profile: "other" }, "create")).profile, "other");
    assert.equal((await open(ctx, { json: true, format: "json" })).output.format, "json");
  });
});

Deno.test("openSession() uses HARK_PROFILE and an absent config as empty", async () => {
  await withConfig(undefined, async (path) => {
    const ctx = createTestContext({ env: { HARK_CONFIG: path, HARK_PROFILE: "ci" } });
    const session = await open(ctx, {}, "create");
    assert.deepEqual(session.config, {});
    assert.equal(session.profile, "ci");
  });
});

Deno.test("openSession() refuses an unknown profile named by --profile or HARK_PROFILE", async () => {
  const config = { apps: { default: { app_id: "cli_d" }, work: { app_id: "cli_w" } } };
  await withConfig(JSON.stringify(config), async (path) => {
    const cases: [Partial<GlobalOptions>, Record<string, string>, string][] = [
      [{ profile: "wrok" }, {}, "--profile"],
      [{}, { HARK_PROFILE: "wrok" }, "HARK_PROFILE"],
    ];
    for (const [globals, env, param] of cases) {
      const ctx = createTestContext({ env: { HARK_CONFIG: path, ...env } });
      await assert.rejects(open(ctx, globals), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(
          error.message,
          `Unknown profile "wrok" (from ${param}); known profiles: default, work`,
        );
        assert.equal(error.param, param);
        assert.equal(error.recovery.command, "hark profile list");
        return true;
      });
      // Commands that create a profile or edit the file as a whole are not stopped.
      assert.equal((await open(ctx, globals, "create")).profile, "wrok");
      assert.equal((await open(ctx, globals, "none")).profile, "wrok");
    }
  });
});

Deno.test("openSession() refuses a hand-edited bad value of the profile's app, exit 2", async () => {
  for (const bad of [42, "not a url", "ftp://x", null, ["https://a.b"]]) {
    const config = { apps: { work: { app_id: "cli_w", base_url: bad } } };
    await withConfig(JSON.stringify(config), async (path) => {
      const ctx = createTestContext({ env: { HARK_CONFIG: path, HARK_PROFILE: "work" } });
      await assert.rejects(open(ctx, {}), (error: unknown) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.equal(error.code, 2);
        assert.equal(error.param, "apps.work.base_url");
        assert.match(error.message, /^Invalid value .* for "apps\.work\.base_url" in "/);
        assert.equal(
          error.recovery.command,
          "hark config set apps.work.base_url https://open.larksuite.com",
        );
        return true;
      });
      // The fix itself runs.
      await open(ctx, {}, "none");
    });
  }
  // A base URL with a path: the fix is its origin.
  const pathed = {
    apps: { default: { app_id: "cli_w", base_url: "https://a.example/open-apis" } },
  };
  await withConfig(JSON.stringify(pathed), async (path) => {
    const ctx = createTestContext({ env: { HARK_CONFIG: path } });
    const error = await open(ctx, {}).catch((e) => e);
    assert.ok(error instanceof ValidationError, String(error));
    assert.equal(error.param, "apps.default.base_url");
    assert.equal(error.recovery.command, "hark config set apps.default.base_url https://a.example");
  });
  const other = { apps: { a: { app_id: 7 }, b: { base_url: "https://open.feishu.cn" } } };
  await withConfig(JSON.stringify(other), async (path) => {
    const ctx = createTestContext({ env: { HARK_CONFIG: path } });
    const error = await open(ctx, { profile: "a" }).catch((e) => e);
    assert.equal(error.param, "apps.a.app_id");
    assert.equal(error.recovery.command, "hark config init --force --profile a");
    assert.equal((await open(ctx, { profile: "b" })).baseUrl(), "https://open.feishu.cn");
  });
});

Deno.test("openSession() refuses a bad HARK_KEYCHAIN before reading anything, exit 2", async () => {
  const ctx = createTestContext({ env: { HARK_KEYCHAIN: "bogus", HARK_CONFIG: "/nonexistent" } });
  await assert.rejects(open(ctx, {}, "none"), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.param, "HARK_KEYCHAIN");
    assert.equal(error.recovery.command, "unset HARK_KEYCHAIN");
    return true;
  });
});

Deno.test("Session.requireSetup() asks for config init unless a token can come from somewhere", async () => {
  await withConfig(undefined, async (path) => {
    const session = async (env: Record<string, string>) =>
      await open(createTestContext({ env: { HARK_CONFIG: path, ...env } }), {});
    const bare = await session({});
    for (const identity of ["user", "bot"] as const) {
      assert.throws(() => bare.requireSetup(identity), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(error.message, 'No app is configured for profile "default"');
        assert.equal(error.recovery.command, "hark config init");
        return true;
      });
      assert.throws(() => bare.tokens(identity), /No app is configured/);
    }
    // CI: an environment token, or the app's credentials for the bot, need no config.
    (await session({ HARK_USER_ACCESS_TOKEN: "u-1" })).requireSetup("user");
    (await session({ HARK_TENANT_ACCESS_TOKEN: "t-1" })).requireSetup("bot");
    (await session({ HARK_APP_ID: "cli_x", HARK_APP_SECRET: "s" })).requireSetup("bot");
    // Signing in needs the app itself.
    assert.throws(() => bare.requireSetup("app"), /No app is configured/);
    (await session({ HARK_APP_ID: "cli_x", HARK_APP_SECRET: "s" })).requireSetup("app");
    const userOnly = await session({ HARK_USER_ACCESS_TOKEN: "u-1" });
    assert.throws(() => userOnly.requireSetup("app"), /No app is configured/);
    assert.throws(
      () => userOnly.requireSetup("bot"),
      (error: ValidationError) => error.recovery.suggestion.includes("HARK_TENANT_ACCESS_TOKEN"),
    );
  });
  const configured = JSON.stringify({ apps: { default: { app_id: "cli_d" } } });
  await withConfig(configured, async (path) => {
    (await open(createTestContext({ env: { HARK_CONFIG: path } }), {})).requireSetup();
  });
});

Deno.test("openSession() fails on a malformed config", async () => {
  await withConfig("{,}", async (path) => {
    const ctx = createTestContext({ env: { HARK_CONFIG: path } });
    await assert.rejects(open(ctx, {}), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.match(error.message, /line 1, column 2/);
      return true;
    });
  });
});

Deno.test("Session.baseUrl() refuses an explicitly named profile that does not exist", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/config.json`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({ apps: { work: { app_id: "cli_w", base_url: "https://open.feishu.cn" } } }),
    );
    const run = async (globals: Partial<GlobalOptions>, env: Record<string, string> = {}) => {
      const ctx = createTestContext({ env: { HARK_CONFIG: path, ...env } });
      // `create` leaves the check to baseUrl(), for sessions opened without it.
      return (await open(ctx, globals, "create")).baseUrl();
    };
    assert.equal(await run({ profile: "work" }), "https://open.feishu.cn");
    // No profile named: the default profile may be absent (a CI job with an env token).
    assert.equal(await run({}), "https://open.larksuite.com");
    await assert.rejects(run({ profile: "wrok" }), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.match(
        error.message,
        /Unknown profile "wrok" \(from --profile\); known profiles: work/,
      );
      assert.equal(error.param, "--profile");
      return true;
    });
    await assert.rejects(run({}, { HARK_PROFILE: "nope" }), /Unknown profile "nope"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A memory keychain that counts the warm-ups asked of it, and keeps the paths to read ahead. */
class PreparedKeychain extends MemoryKeychain {
  prepared = 0;
  ahead: (readonly string[] | undefined)[] = [];
  prepare(paths?: readonly string[]): void {
    this.prepared++;
    this.ahead.push(paths);
  }
}

Deno.test("openSession() warms the keychain up only for a command that will read it", async () => {
  const config = {
    apps: { default: { app_id: "cli_a", app_secret: "@keychain:hark/default/app_secret" } },
    users: { default: { open_id: "ou_1", name: "Ann" } },
  };
  await withConfig(JSON.stringify(config), async (path) => {
    const cases: [string, Record<string, string>, Partial<GlobalOptions>, ProfileUse, number][] = [
      ["a signed-in profile", {}, {}, "use", 1],
      ["an environment user token", { HARK_USER_ACCESS_TOKEN: "u-1" }, {}, "use", 0],
      ["an environment tenant token", { HARK_TENANT_ACCESS_TOKEN: "t-1" }, {}, "use", 0],
      ["a dry run", {}, { dryRun: true }, "use", 0],
      ["config get/set, profile …", {}, {}, "none", 0],
      ["config init", {}, {}, "create", 0],
    ];
    for (const [what, env, globals, use, expected] of cases) {
      const keychain = new PreparedKeychain();
      const ctx = createTestContext({ env: { HARK_CONFIG: path, ...env }, keychain });
      await open(ctx, globals, use);
      assert.equal(keychain.prepared, expected, what);
    }
  });
  await withConfig(JSON.stringify({ apps: { default: { app_id: "cli_a" } } }), async (path) => {
    const keychain = new PreparedKeychain();
    await open(createTestContext({ env: { HARK_CONFIG: path }, keychain }), {});
    assert.equal(keychain.prepared, 0, "nothing of the profile is in the keychain");
  });
});

Deno.test("openSession() reads ahead the signed-in user's token, only this config's own entry", async () => {
  const config = {
    keychain_namespace: "t1",
    apps: { default: { app_id: "cli_a", app_secret: "@keychain:hark/t1/default/app_secret" } },
    // Whatever the entry names, the read ahead is of the config's own path.
    users: {
      default: { open_id: "ou_1", access_token: "@keychain:hark/other/default/user_token" },
    },
  };
  await withConfig(JSON.stringify(config), async (path) => {
    for (
      const [what, globals, expected] of [
        ["as the user", {}, ["hark/t1/default/user_token"]],
        ["as the bot", { as: "bot" }, []],
      ] as const
    ) {
      const keychain = new PreparedKeychain();
      await open(createTestContext({ env: { HARK_CONFIG: path }, keychain }), globals);
      assert.deepEqual(keychain.ahead, [expected], what);
    }
  });
  // A config of its own path without a namespace has no entries of its own to read.
  const { keychain_namespace: _, ...bare } = config;
  await withConfig(JSON.stringify(bare), async (path) => {
    const keychain = new PreparedKeychain();
    await open(createTestContext({ env: { HARK_CONFIG: path }, keychain }), {});
    assert.deepEqual(keychain.ahead, [[]]);
  });
});
