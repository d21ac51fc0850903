import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext, type TestContext } from "../testing/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import type { CommandSpec } from "./command_spec.ts";
import { GLOBAL_FLAGS, readGlobals } from "./globals.ts";
import { parseArgv } from "./parse_argv.ts";
import { openSession, type Session } from "./session.ts";

const ROOT: CommandSpec = {
  name: "hark",
  description: "root",
  flags: GLOBAL_FLAGS,
  commands: [{ name: "leaf", description: "a leaf", run: () => Promise.resolve() }],
};

async function open(ctx: TestContext, argv: string[]): Promise<Session> {
  const parsed = await parseArgv(ROOT, argv);
  return await openSession(ctx, readGlobals(ctx, parsed.globals));
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
    const session = await open(ctx, ["leaf", "--no-color"]);
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
    assert.equal((await open(ctx, ["--profile", "other", "leaf"])).profile, "other");
    assert.equal((await open(ctx, ["leaf", "--json"])).output.format, "json");
  });
});

Deno.test("openSession() uses HARK_PROFILE and an absent config as empty", async () => {
  await withConfig(undefined, async (path) => {
    const ctx = createTestContext({ env: { HARK_CONFIG: path, HARK_PROFILE: "ci" } });
    const session = await open(ctx, ["leaf"]);
    assert.deepEqual(session.config, {});
    assert.equal(session.profile, "ci");
  });
});

Deno.test("openSession() fails on a malformed config", async () => {
  await withConfig("{,}", async (path) => {
    const ctx = createTestContext({ env: { HARK_CONFIG: path } });
    await assert.rejects(open(ctx, ["leaf"]), (error: unknown) => {
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
    const run = async (argv: string[], env: Record<string, string> = {}) => {
      const ctx = createTestContext({ env: { HARK_CONFIG: path, ...env } });
      return (await open(ctx, argv)).baseUrl();
    };
    assert.equal(await run(["leaf", "--profile", "work"]), "https://open.feishu.cn");
    // No profile named: the default profile may be absent (a CI job with an env token).
    assert.equal(await run(["leaf"]), "https://open.larksuite.com");
    await assert.rejects(run(["leaf", "--profile", "wrok"]), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.match(error.message, /Unknown profile "wrok"; known profiles: work/);
      assert.equal(error.param, "--profile");
      return true;
    });
    await assert.rejects(run(["leaf"], { HARK_PROFILE: "nope" }), /Unknown profile "nope"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
