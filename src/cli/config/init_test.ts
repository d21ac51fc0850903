import assert from "node:assert/strict";
import { join } from "node:path";
import {
  createTestContext,
  type TestContext,
  type TestContextOptions,
} from "../../../tests/support/test_context.ts";
import { MemoryKeychain } from "../../keychain/memory_keychain.ts";
import { KeychainError } from "../../keychain/keychain.ts";
import { ValidationError } from "../../errors/mod.ts";
import { runCli } from "../run_cli.ts";
import { storedAppSecretText } from "../../config/mod.ts";

const SECRET = "app-secret-0123456789";
const LARK = "https://open.larksuite.com";

/** The keychain entry config init writes: the secret and the origin it is for. */
function stored(secret: string, origin = LARK): string {
  return storedAppSecretText(secret, origin);
}

async function withInit(
  fn: (ctx: TestContext, path: string) => Promise<void>,
  options: TestContextOptions & { config?: unknown } = {},
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-init-test-" });
  try {
    const path = join(dir, "hark", "config.json");
    if (options.config !== undefined) {
      await Deno.mkdir(join(dir, "hark"), { recursive: true });
      await Deno.writeTextFile(path, JSON.stringify(options.config));
    }
    const ctx = createTestContext({
      stdoutIsTerminal: true,
      ...options,
      // The default config path (no HARK_CONFIG): its keychain entries carry no namespace.
      env: { XDG_CONFIG_HOME: dir, ...options.env },
    });
    await fn(ctx, path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(path));
}

const INIT = [
  "config",
  "init",
  "--non-interactive",
  "--app-id",
  "cli_a1b2c3",
  "--app-secret-stdin",
];

Deno.test("config init --app-secret-stdin stores the secret in the keychain and a reference in the file", async () => {
  await withInit(async (ctx, path) => {
    const outcome = await runCli(ctx, INIT);
    assert.equal(outcome.code, 0, outcome.error?.message);
    assert.deepEqual([...ctx.keychain.entries], [["hark/default/app_secret", stored(SECRET)]]);
    assert.deepEqual(await readJson(path), {
      apps: {
        default: {
          app_id: "cli_a1b2c3",
          app_secret: "@keychain:hark/default/app_secret",
          base_url: "https://open.larksuite.com",
        },
      },
    });
    assert.ok(!(await Deno.readTextFile(path)).includes(SECRET));
    assert.ok(!ctx.stderr.text().includes(SECRET));
    assert.ok(!ctx.stdout.text().includes(SECRET));
    assert.match(ctx.stderr.text(), /Saved profile "default"/);
    assert.match(ctx.stderr.text(), /Next: hark auth login\n/);
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(join(path, ".."))).mode! & 0o777, 0o700);
    }
  }, { stdin: `${SECRET}\n` });
});

Deno.test("config init --json prints the result without the secret", async () => {
  await withInit(async (ctx, path) => {
    const outcome = await runCli(ctx, [
      ...INIT,
      "--json",
      "--base-url",
      "feishu",
      "--profile",
      "cn",
    ]);
    assert.equal(outcome.code, 0, outcome.error?.message);
    assert.deepEqual(JSON.parse(ctx.stdout.text()), {
      app_id: "cli_a1b2c3",
      app_secret: "@keychain:hark/cn/app_secret",
      base_url: "https://open.feishu.cn",
      config: path,
      keychain: "memory",
      profile: "cn",
    });
    const config = await readJson(path);
    assert.equal(config.active_profile, "cn", "a first named profile becomes the active one");
    assert.equal(
      ctx.keychain.entries.get("hark/cn/app_secret"),
      stored(SECRET, "https://open.feishu.cn"),
    );
  }, { stdin: SECRET });
});

Deno.test("config init without a terminal never prompts, even without --non-interactive", async () => {
  await withInit(async (ctx) => {
    const outcome = await runCli(ctx, ["config", "init", "--app-secret-stdin"]);
    assert.equal(outcome.code, 2);
    assert.ok(outcome.error instanceof ValidationError);
    assert.equal(outcome.error.param, "--app-id");
    assert.match(outcome.error.message, /^Missing --app-id/);
    assert.equal(ctx.keychain.entries.size, 0);
  }, { stdin: SECRET, stdinIsTerminal: false, stdoutIsTerminal: true });
});

Deno.test("config init --non-interactive names each missing flag", async () => {
  await withInit(async (ctx, path) => {
    const outcome = await runCli(ctx, ["config", "init", "--non-interactive", "--app-id", "cli_1"]);
    assert.equal(outcome.code, 2);
    assert.equal((outcome.error as ValidationError).param, "--app-secret-stdin");
    assert.match(outcome.error!.message, /--app-secret-stdin or --app-secret/);
    assert.equal(await ctx.fs.exists(path), false);
  }, { stdinIsTerminal: true, stdoutIsTerminal: true });
});

Deno.test("config init rejects empty stdin and both secret flags", async () => {
  await withInit(async (ctx) => {
    const outcome = await runCli(ctx, INIT);
    assert.equal(outcome.code, 2);
    assert.equal((outcome.error as ValidationError).param, "--app-secret-stdin");
    assert.match(outcome.error!.message, /stdin is empty/);
  }, { stdin: "" });
  await withInit(async (ctx) => {
    const outcome = await runCli(ctx, [...INIT, "--app-secret", "x"]);
    assert.equal(outcome.code, 2);
    assert.match(outcome.error!.message, /either --app-secret or --app-secret-stdin/);
  }, { stdin: SECRET });
});

Deno.test("config init checks the app id, base URL, output format and secret", async () => {
  const cases: [string[], string, string][] = [
    [["--app-id", "has space"], SECRET, "--app-id"],
    [["--base-url", "not-a-url"], SECRET, "--base-url"],
    [["--output-format", "yaml"], SECRET, "--output-format"],
    [[], "bad\u0001secret", "--app-secret"],
    [["--profile", "a/b"], SECRET, "--profile"],
  ];
  for (const [extra, stdin, param] of cases) {
    await withInit(async (ctx, path) => {
      const outcome = await runCli(ctx, [...INIT, ...extra]);
      assert.equal(outcome.code, 2, extra.join(" "));
      assert.ok(outcome.error instanceof ValidationError);
      assert.equal(outcome.error.param, param, outcome.error.message);
      assert.equal(ctx.keychain.entries.size, 0);
      assert.equal(await ctx.fs.exists(path), false);
    }, { stdin });
  }
});

Deno.test("config init --base-url with a path is exit 2 naming the flag and the origin", async () => {
  await withInit(async (ctx, path) => {
    const outcome = await runCli(ctx, [...INIT, "--base-url", "https://open.feishu.cn/open-apis"]);
    assert.equal(outcome.code, 2);
    assert.ok(outcome.error instanceof ValidationError);
    assert.equal(outcome.error.param, "--base-url");
    assert.match(
      outcome.error.message,
      /^Invalid --base-url "https:\/\/open\.feishu\.cn\/open-apis"/,
    );
    assert.match(outcome.error.recovery.suggestion, /^Use https:\/\/open\.feishu\.cn; /);
    assert.equal(await ctx.fs.exists(path), false);
  }, { stdin: SECRET });
});

Deno.test("config init --app-secret warns about shell history outside CI only", async () => {
  const argv = ["config", "init", "--non-interactive", "--app-id", "cli_1", "--app-secret", SECRET];
  await withInit(async (ctx) => {
    assert.equal((await runCli(ctx, argv)).code, 0);
    assert.match(
      ctx.stderr.text(),
      /warning: --app-secret leaves the secret in your shell history/,
    );
    assert.ok(!ctx.stderr.text().includes(SECRET));
    assert.equal(ctx.keychain.entries.get("hark/default/app_secret"), stored(SECRET));
  });
  await withInit(async (ctx) => {
    assert.equal((await runCli(ctx, argv)).code, 0);
    assert.ok(!ctx.stderr.text().includes("warning"));
  }, { env: { CI: "true" } });
});

Deno.test("config init --output-format stores the preference", async () => {
  await withInit(async (ctx, path) => {
    assert.equal((await runCli(ctx, [...INIT, "--output-format", "csv"])).code, 0);
    assert.deepEqual((await readJson(path)).preferences, { output_format: "csv", color: false });
  }, { stdin: SECRET, config: { preferences: { color: false } } });
});

Deno.test("config init --output-format auto removes the preference", async () => {
  await withInit(async (ctx, path) => {
    assert.equal((await runCli(ctx, [...INIT, "--output-format", "auto"])).code, 0);
    assert.deepEqual((await readJson(path)).preferences, { color: false });
  }, { stdin: SECRET, config: { preferences: { output_format: "table", color: false } } });
});

Deno.test("config init over an existing profile needs --force without a terminal", async () => {
  const config = {
    apps: { default: { app_id: "cli_old", app_secret: "@keychain:hark/default/app_secret" } },
    future: 1,
  };
  const keychain = () => new MemoryKeychain({ "hark/default/app_secret": "old-secret" });
  await withInit(async (ctx, path) => {
    const before = await Deno.readTextFile(path);
    const outcome = await runCli(ctx, INIT);
    assert.equal(outcome.code, 2);
    assert.ok(outcome.error instanceof ValidationError);
    assert.equal(outcome.error.param, "--force");
    assert.equal(outcome.error.message, 'Profile "default" already exists');
    assert.match(outcome.error.recovery.suggestion, /--force/);
    assert.equal(await Deno.readTextFile(path), before);
    assert.equal(ctx.keychain.entries.get("hark/default/app_secret"), "old-secret");
  }, { stdin: SECRET, config, keychain: keychain() });

  await withInit(async (ctx, path) => {
    const outcome = await runCli(ctx, [
      ...INIT,
      "--force",
      "--base-url",
      "https://lark.example.com",
    ]);
    assert.equal(outcome.code, 0, outcome.error?.message);
    assert.deepEqual(await readJson(path), {
      apps: {
        default: {
          app_id: "cli_a1b2c3",
          app_secret: "@keychain:hark/default/app_secret",
          base_url: "https://lark.example.com",
        },
      },
      future: 1,
    });
    assert.equal(
      ctx.keychain.entries.get("hark/default/app_secret"),
      stored(SECRET, "https://lark.example.com"),
    );
  }, { stdin: SECRET, config, keychain: keychain() });
});

/** A keychain that breaks the config file when a secret is stored, so the config write fails. */
class SabotageKeychain extends MemoryKeychain {
  constructor(initial: Record<string, string>, readonly configPath: string) {
    super(initial);
  }

  override async set(path: string, secret: string): Promise<void> {
    await super.set(path, secret);
    await Deno.writeTextFile(this.configPath, "{ broken");
  }
}

Deno.test("config init leaves the keychain as it was when the config write fails", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-init-test-" });
  try {
    const path = join(dir, "config.json");
    for (
      const initial of [{}, { "hark/default/app_secret": "previous" }] as Record<string, string>[]
    ) {
      await Deno.writeTextFile(path, "{}");
      const keychain = new SabotageKeychain(initial, path);
      const ctx = createTestContext({ keychain, stdin: SECRET, env: { HARK_CONFIG: path } });
      const outcome = await runCli(ctx, [...INIT, "--force"]);
      assert.equal(outcome.code, 2);
      assert.match(outcome.error!.message, /Cannot parse the config file/);
      assert.deepEqual(Object.fromEntries(keychain.entries), initial);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("config init of a second config file keeps its secret apart from the default one's (issue 12, item 3)", async () => {
  await withInit(async (ctx, path) => {
    assert.equal((await runCli(ctx, INIT)).code, 0);
    const other = join(path, "..", "..", "other.json");
    const second = createTestContext({
      keychain: ctx.keychain,
      stdin: "second-secret",
      env: { XDG_CONFIG_HOME: join(path, "..", ".."), HARK_CONFIG: other },
    });
    const outcome = await runCli(second, INIT);
    assert.equal(outcome.code, 0, outcome.error?.message);
    const written = await readJson(other) as {
      keychain_namespace: string;
      apps: { default: { app_secret: string } };
    };
    assert.match(written.keychain_namespace, /^[0-9a-f]{10}$/);
    const ownPath = `hark/${written.keychain_namespace}/default/app_secret`;
    assert.equal(written.apps.default.app_secret, `@keychain:${ownPath}`);
    assert.deepEqual(Object.fromEntries(ctx.keychain.entries), {
      "hark/default/app_secret": stored(SECRET),
      [ownPath]: stored("second-secret"),
    });
    assert.equal(
      ((await readJson(path)).apps as Record<string, { app_secret: string }>).default.app_secret,
      "@keychain:hark/default/app_secret",
    );
  }, { stdin: SECRET });
});

Deno.test("config init never overwrites a secret this config does not refer to without --force", async () => {
  const keychain = () => new MemoryKeychain({ "hark/default/app_secret": "someone-elses" });
  await withInit(async (ctx, path) => {
    const outcome = await runCli(ctx, INIT);
    assert.equal(outcome.code, 2);
    assert.ok(outcome.error instanceof ValidationError);
    assert.equal(outcome.error.param, "--force");
    assert.match(outcome.error.message, /"hark\/default\/app_secret" exists and this config/);
    assert.equal(outcome.error.recovery.command, "hark config init --force");
    assert.equal(ctx.keychain.entries.get("hark/default/app_secret"), "someone-elses");
    assert.equal(await ctx.fs.exists(path), false);
  }, { stdin: SECRET, keychain: keychain() });
  await withInit(async (ctx) => {
    assert.equal((await runCli(ctx, [...INIT, "--force"])).code, 0);
    assert.equal(ctx.keychain.entries.get("hark/default/app_secret"), stored(SECRET));
  }, { stdin: SECRET, keychain: keychain() });
});

/** A keychain that answers reads but refuses to store, as a locked file keychain would. */
class RefusingKeychain extends MemoryKeychain {
  override set(path: string): Promise<void> {
    return Promise.reject(
      new KeychainError("memory", `Cannot store "${path}": the keychain refused it`),
    );
  }
}

Deno.test("config init keeps the answers when the keychain refuses the secret, and says how to add it", async () => {
  await withInit(async (ctx, path) => {
    const outcome = await runCli(ctx, [
      ...INIT,
      "--profile",
      "work",
      "--base-url",
      "feishu",
      "--output-format",
      "json",
    ]);
    assert.equal(outcome.code, 1);
    assert.equal(outcome.error?.type, "keychain");
    assert.equal(
      outcome.error?.recovery.command,
      "hark config init --profile work --app-id cli_a1b2c3 --base-url https://open.feishu.cn",
    );
    assert.match(outcome.error!.recovery.suggestion, /"work" was saved without its app secret/);
    assert.deepEqual(await readJson(path), {
      apps: { work: { app_id: "cli_a1b2c3", base_url: "https://open.feishu.cn" } },
      preferences: { output_format: "json" },
    });

    // The command offered completes it: the incomplete profile is not "replaced", no --force.
    const again = createTestContext({ stdin: `${SECRET}\n`, env: ctx.env.toObject() });
    const done = await runCli(again, [
      "config",
      "init",
      "--non-interactive",
      "--app-secret-stdin",
      "--profile",
      "work",
      "--app-id",
      "cli_a1b2c3",
      "--base-url",
      "https://open.feishu.cn",
    ]);
    assert.equal(done.code, 0, done.error?.message);
    const config = await readJson(path) as { apps: Record<string, Record<string, string>> };
    assert.equal(config.apps.work.app_secret, "@keychain:hark/work/app_secret");
  }, { stdin: `${SECRET}\n`, keychain: new RefusingKeychain() });
});
