import assert from "node:assert/strict";
import { join } from "node:path";
import {
  createTestContext,
  type TestContext,
  type TestContextOptions,
} from "../../../tests/support/test_context.ts";
import { HarkError, ValidationError } from "../../errors/mod.ts";
import { loadConfig, resolveConfigPath } from "../../config/mod.ts";
import { configGet, getConfigValue } from "./get.ts";
import { configSet } from "./set.ts";
import type { GlobalOptions } from "../../session/global_options.ts";
import { runCli } from "../run_cli.ts";
import { Session } from "../../session/session.ts";

const SAMPLE = {
  apps: {
    default: {
      app_id: "cli_default",
      app_secret: "@keychain:hark/default/app_secret",
      base_url: "https://open.feishu.cn",
    },
    legacy: { app_id: "cli_legacy", app_secret: "plaintext-legacy-secret" },
  },
  users: {
    default: { access_token: "@keychain:hark/default/user_token", name: "Ada", user_type: "user" },
  },
  preferences: { output_format: "table" as const, color: false },
  future: { keep: true },
};

async function withConfig(
  config: unknown,
  fn: (ctx: TestContext, path: string) => Promise<void>,
  options: TestContextOptions = {},
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-config-cmd-" });
  try {
    const path = join(dir, "hark", "config.json");
    if (config !== undefined) {
      await Deno.mkdir(join(dir, "hark"), { recursive: true });
      await Deno.writeTextFile(path, JSON.stringify(config, null, 2));
    }
    await fn(
      createTestContext({
        stdoutIsTerminal: true,
        ...options,
        env: { HARK_CONFIG: path, ...options.env },
      }),
      path,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function session(ctx: TestContext, globals: Partial<GlobalOptions> = {}): Promise<Session> {
  const all: GlobalOptions = { json: false, dryRun: false, color: true, debug: false, ...globals };
  const configPath = resolveConfigPath(ctx);
  const config = await loadConfig(ctx, configPath);
  return new Session(ctx, all, configPath, config);
}

Deno.test("getConfigValue() follows dot paths", () => {
  assert.equal(getConfigValue(SAMPLE, "preferences.output_format"), "table");
  assert.equal(getConfigValue(SAMPLE, "preferences.color"), false);
  assert.equal(getConfigValue(SAMPLE, "apps.default.base_url"), "https://open.feishu.cn");
  assert.deepEqual(getConfigValue(SAMPLE, "future"), { keep: true });
  assert.equal(getConfigValue(SAMPLE, "apps.nope.app_id"), undefined);
  assert.equal(getConfigValue(SAMPLE, "apps.default.app_id.deeper"), undefined);
});

Deno.test("getConfigValue() shows secret references and masks literal secrets", () => {
  assert.equal(
    getConfigValue(SAMPLE, "apps.default.app_secret"),
    "@keychain:hark/default/app_secret",
  );
  assert.equal(getConfigValue(SAMPLE, "apps.legacy.app_secret"), "plai…");
  const whole = JSON.stringify(getConfigValue(SAMPLE, ""));
  assert.ok(!whole.includes("plaintext-legacy-secret"), whole);
  assert.ok(whole.includes("@keychain:hark/default/user_token"));
  const app = getConfigValue(SAMPLE, "apps.legacy") as Record<string, unknown>;
  assert.equal(app.app_secret, "plai…");
  assert.equal(app.app_id, "cli_legacy");
});

Deno.test("configGet() prints a scalar bare and an object as JSON", async () => {
  await withConfig(SAMPLE, async (ctx) => {
    const s = await session(ctx);
    await configGet(s, { key: "preferences.output_format" });
    await configGet(s, { key: "preferences.color" });
    await configGet(s, { key: "apps.default" });
    assert.equal(
      ctx.stdout.text(),
      "table\nfalse\n" +
        JSON.stringify(SAMPLE.apps.default, null, 2) + "\n",
    );
    assert.equal(ctx.stderr.text(), "");
  });
});

Deno.test("configGet() with --json prints {key, value}", async () => {
  await withConfig(SAMPLE, async (ctx) => {
    await configGet(await session(ctx, { json: true, format: "json" }), {
      key: "apps.legacy.app_secret",
    });
    assert.deepEqual(JSON.parse(ctx.stdout.text()), {
      key: "apps.legacy.app_secret",
      value: "plai…",
    });
  });
});

Deno.test("configGet() of an unset key without a default is a not_found error with exit 1", async () => {
  await withConfig(undefined, async (ctx) => {
    const s = await session(ctx);
    // No such profile, so its base URL has no default either.
    for (const key of ["apps.default.base_url", "apps.default.app_id"]) {
      await assert.rejects(() => configGet(s, { key }), (error: unknown) => {
        assert.ok(error instanceof HarkError);
        assert.equal(error.code, 1);
        assert.equal(error.type, "not_found");
        assert.equal(error.message, `"${key}" is not set`);
        return true;
      });
    }
    assert.equal(ctx.stdout.text(), "");
  });
});

Deno.test("configGet() of an unset key with a default prints it and says it is the default", async () => {
  const config = { apps: { work: { app_id: "cli_w", base_url: "https://open.feishu.cn" } } };
  await withConfig(config, async (ctx) => {
    const s = await session(ctx);
    await configGet(s, { key: "preferences.output_format" });
    await configGet(s, { key: "apps.work.accounts_url" });
    await configGet(s, { key: "apps.work.device_authorization_path" });
    assert.equal(
      ctx.stdout.text(),
      "auto\nhttps://accounts.feishu.cn\n/oauth/v1/device_authorization\n",
    );
    assert.match(ctx.stderr.text(), /"preferences\.output_format" is not set: this is the default/);
  });
  await withConfig(config, async (ctx) => {
    await configGet(await session(ctx, { json: true, format: "json" }), { key: "active_profile" });
    assert.deepEqual(JSON.parse(ctx.stdout.text()), {
      key: "active_profile",
      value: "default",
      default: true,
    });
  });
});

Deno.test("configSet() stores each kind of value, keeping unknown keys", async () => {
  await withConfig(SAMPLE, async (ctx, path) => {
    const s = await session(ctx);
    await configSet(s, { key: "preferences.output_format", value: "csv" });
    await configSet(s, { key: "preferences.color", value: "on" });
    await configSet(s, { key: "preferences.keychain", value: "file" });
    await assert.rejects(
      configSet(s, { key: "preferences.keychain", value: "memory" }),
      /expected one of auto, macos, linux, windows, file/,
    );
    await configSet(s, { key: "apps.work.base_url", value: "https://open.larksuite.com/" });
    await configSet(s, { key: "apps.work.app_secret", value: "@env:WORK_SECRET" });
    await configSet(s, { key: "apps.work.credential_command", value: '["vault","hark"]' });
    // A fresh session, as a new invocation would load the config with apps.work in it.
    await configSet(await session(ctx), { key: "active_profile", value: "work" });
    const written = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(written.preferences, { output_format: "csv", color: true, keychain: "file" });
    assert.deepEqual(written.apps.work, {
      base_url: "https://open.larksuite.com",
      app_secret: "@env:WORK_SECRET",
      credential_command: ["vault", "hark"],
    });
    assert.equal(written.active_profile, "work");
    assert.deepEqual(written.future, { keep: true });
    assert.deepEqual(written.apps.default, SAMPLE.apps.default);
    assert.deepEqual(written.users, SAMPLE.users);
    assert.equal(ctx.stdout.text(), "");
    assert.match(ctx.stderr.text(), /^Set preferences\.output_format to "csv"\n/);
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    }
  });
});

Deno.test("configSet() creates the config file when there is none", async () => {
  await withConfig(undefined, async (ctx, path) => {
    await configSet(await session(ctx), { key: "preferences.output_format", value: "json" });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), {
      preferences: { output_format: "json" },
    });
  });
});

Deno.test("configSet() with --json prints {key, value} on stdout", async () => {
  await withConfig(undefined, async (ctx) => {
    await configSet(await session(ctx, { json: true, format: "json" }), {
      key: "preferences.color",
      value: "false",
    });
    // Pretty, since this test's stdout is a terminal.
    assert.deepEqual(JSON.parse(ctx.stdout.text()), { key: "preferences.color", value: false });
  });
});

Deno.test("configSet() refuses bad values and unknown keys without touching the file", async () => {
  const bad: [string, string, RegExp][] = [
    ["preferences.output_format", "yaml", /expected one of table, json, ndjson, csv/],
    ["preferences.color", "blue", /expected true or false/],
    ["apps.default.base_url", "not a url", /http\(s\) URL/],
    ["apps.default.app_secret", "plaintext", /Refusing to write a plaintext secret/],
    ["apps.default.app_secret", "@plain:plaintext", /Refusing to write a plaintext secret/],
    ["users.default.access_token", "@env:X", /Unknown config key/],
    ["preferences.colour", "true", /Unknown config key "preferences\.colour"/],
    ["apps.bad name.app_id", "cli_1", /Invalid profile name/],
  ];
  await withConfig(SAMPLE, async (ctx, path) => {
    const before = await Deno.readTextFile(path);
    const s = await session(ctx);
    for (const [key, value, pattern] of bad) {
      await assert.rejects(configSet(s, { key, value }), (error: unknown) => {
        assert.ok(error instanceof ValidationError, `${key}=${value}`);
        assert.equal(error.code, 2);
        assert.match(error.message, pattern);
        return true;
      });
    }
    assert.equal(await Deno.readTextFile(path), before);
    assert.equal(ctx.stdout.text(), "");
  });
});

Deno.test("hark config set and get round-trip through the CLI", async () => {
  await withConfig(undefined, async (ctx) => {
    const set = await runCli(ctx, [
      "config",
      "set",
      "apps.default.base_url",
      "https://open.feishu.cn",
    ]);
    assert.equal(set.code, 0, set.error?.message);
    const get = await runCli(ctx, ["config", "get", "apps.default.base_url"]);
    assert.equal(get.code, 0);
    assert.equal(ctx.stdout.text(), "https://open.feishu.cn\n");
  });
});

Deno.test("hark config get of the whole config never shows a literal secret", async () => {
  await withConfig(SAMPLE, async (ctx) => {
    const outcome = await runCli(ctx, ["config", "get", "--json"]);
    assert.equal(outcome.code, 0);
    const { key, value } = JSON.parse(ctx.stdout.text());
    assert.equal(key, "");
    assert.equal(value.apps.default.app_secret, "@keychain:hark/default/app_secret");
    assert.equal(value.apps.legacy.app_secret, "plai…");
    assert.ok(!ctx.stdout.text().includes("plaintext-legacy-secret"));
  });
});

Deno.test("hark config set with a plaintext secret exits 2 pointing at config init", async () => {
  await withConfig(undefined, async (ctx, path) => {
    const outcome = await runCli(ctx, ["config", "set", "apps.x.app_secret", "s3cr3t-value"]);
    assert.equal(outcome.code, 2);
    assert.equal(outcome.error!.recovery.command, "hark config init --force --profile x");
    assert.match(outcome.error!.recovery.suggestion, /--app-secret-stdin/);
    assert.ok(!outcome.error!.message.includes("s3cr3t-value"));
    assert.equal(await createTestContext().fs.exists(path), false, "no file was written");
  });
});
