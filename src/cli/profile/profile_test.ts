import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext, type TestContext } from "../../../tests/support/test_context.ts";
import { MemoryKeychain } from "../../keychain/memory_keychain.ts";
import { ValidationError } from "../../errors/mod.ts";
import { listProfiles } from "./list.ts";
import { runCli } from "../run_cli.ts";

const CONFIG = {
  active_profile: "work",
  apps: {
    default: { app_id: "cli_default", app_secret: "@keychain:hark/default/app_secret" },
    work: {
      app_id: "cli_work",
      app_secret: "@keychain:hark/work/app_secret",
      base_url: "https://open.feishu.cn",
    },
    ci: { app_id: "cli_ci", app_secret: "@env:CI_SECRET" },
  },
  users: {
    work: { access_token: "@keychain:hark/work/user_token", name: "Ada", open_id: "ou_ada" },
    default: { access_token: "@keychain:hark/shared/token", open_id: "ou_bob" },
  },
  preferences: { color: false },
};

async function withProfiles(
  config: unknown,
  fn: (ctx: TestContext, path: string) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-profile-test-" });
  try {
    // The default config path: its entries are hark/<profile>/<name>, without a namespace.
    const path = join(dir, "hark", "config.json");
    await Deno.mkdir(join(dir, "hark"));
    if (config !== undefined) await Deno.writeTextFile(path, JSON.stringify(config));
    const keychain = new MemoryKeychain({
      "hark/default/app_secret": "secret-default",
      "hark/work/app_secret": "secret-work",
      "hark/work/user_token": "token-work",
      "hark/work/extra": "extra-work",
      "hark/shared/token": "token-shared",
      "hark/workshop/app_secret": "secret-workshop",
    });
    await fn(
      createTestContext({
        keychain,
        stdoutIsTerminal: true,
        env: { XDG_CONFIG_HOME: dir, ...env },
      }),
      path,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("listProfiles() lists apps and users by name, marking the active one", () => {
  assert.deepEqual(listProfiles(CONFIG, "work"), [
    {
      name: "ci",
      active: false,
      app_id: "cli_ci",
      base_url: "https://open.larksuite.com",
      user: "",
    },
    {
      name: "default",
      active: false,
      app_id: "cli_default",
      base_url: "https://open.larksuite.com",
      user: "ou_bob",
    },
    {
      name: "work",
      active: true,
      app_id: "cli_work",
      base_url: "https://open.feishu.cn",
      user: "Ada",
    },
  ]);
  assert.deepEqual(listProfiles({ users: { solo: {} } }, "x")[0].user, "signed in");
  assert.deepEqual(listProfiles({}, "default"), []);
});

Deno.test("hark profile list --json prints the rows", async () => {
  await withProfiles(CONFIG, async (ctx) => {
    const outcome = await runCli(ctx, ["profile", "list", "--json"]);
    assert.equal(outcome.code, 0);
    const rows = JSON.parse(ctx.stdout.text());
    assert.deepEqual(rows.map((r: { name: string }) => r.name), ["ci", "default", "work"]);
    assert.deepEqual(rows[2], {
      active: true,
      app_id: "cli_work",
      base_url: "https://open.feishu.cn",
      name: "work",
      user: "Ada",
    });
    assert.ok(!ctx.stdout.text().includes("secret"));
  });
});

Deno.test("hark profile list --format csv and table show name, app id, URL, user and mark", async () => {
  await withProfiles(CONFIG, async (ctx) => {
    assert.equal((await runCli(ctx, ["profile", "list", "--format", "csv"])).code, 0);
    assert.equal(
      ctx.stdout.text(),
      ",NAME,APP ID,BASE URL,USER\r\n" +
        ",ci,cli_ci,https://open.larksuite.com,\r\n" +
        ",default,cli_default,https://open.larksuite.com,ou_bob\r\n" +
        "*,work,cli_work,https://open.feishu.cn,Ada\r\n",
    );
  });
  await withProfiles(CONFIG, async (ctx) => {
    assert.equal((await runCli(ctx, ["--format", "table", "profile", "ls"])).code, 0);
    assert.equal(
      ctx.stdout.text(),
      "   NAME     APP ID       BASE URL                    USER\n" +
        "   ci       cli_ci       https://open.larksuite.com\n" +
        "   default  cli_default  https://open.larksuite.com  ou_bob\n" +
        "*  work     cli_work     https://open.feishu.cn      Ada\n",
    );
  });
});

Deno.test("hark profile list marks the profile chosen by --profile or HARK_PROFILE", async () => {
  await withProfiles(CONFIG, async (ctx) => {
    await runCli(ctx, ["profile", "list", "--json", "--profile", "ci"]);
    const rows = JSON.parse(ctx.stdout.text());
    assert.deepEqual(
      rows.filter((r: { active: boolean }) => r.active).map((r: { name: string }) => r.name),
      ["ci"],
    );
  });
  await withProfiles(CONFIG, async (ctx) => {
    await runCli(ctx, ["profile", "list", "--json"]);
    const rows = JSON.parse(ctx.stdout.text());
    assert.deepEqual(
      rows.filter((r: { active: boolean }) => r.active).map((r: { name: string }) => r.name),
      ["default"],
    );
  }, { HARK_PROFILE: "default" });
});

Deno.test("hark profile list with no profiles says how to create one", async () => {
  await withProfiles(undefined, async (ctx) => {
    const outcome = await runCli(ctx, ["profile", "list", "--format", "table"]);
    assert.equal(outcome.code, 0);
    assert.match(ctx.stderr.text(), /hark config init/);
  });
  await withProfiles(undefined, async (ctx) => {
    assert.equal((await runCli(ctx, ["profile", "list", "--json"])).code, 0);
    assert.equal(ctx.stdout.text(), "[]\n");
  });
});

Deno.test("hark profile use makes a profile active, keeping everything else", async () => {
  await withProfiles(CONFIG, async (ctx, path) => {
    const outcome = await runCli(ctx, ["profile", "use", "ci"]);
    assert.equal(outcome.code, 0, outcome.error?.message);
    const written = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(written, { ...CONFIG, active_profile: "ci" });
    assert.match(ctx.stderr.text(), /Active profile is now "ci"/);
    assert.equal(ctx.stdout.text(), "");
  });
  await withProfiles(CONFIG, async (ctx) => {
    assert.equal((await runCli(ctx, ["--json", "profile", "use", "default"])).code, 0);
    assert.deepEqual(JSON.parse(ctx.stdout.text()), { active_profile: "default" });
  });
});

Deno.test("hark profile use of an unknown name exits 2 listing the known ones", async () => {
  await withProfiles(CONFIG, async (ctx, path) => {
    const before = await Deno.readTextFile(path);
    const outcome = await runCli(ctx, ["profile", "use", "wrok"]);
    assert.equal(outcome.code, 2);
    assert.ok(outcome.error instanceof ValidationError);
    assert.equal(
      outcome.error.message,
      'Unknown profile "wrok"; known profiles: ci, default, work',
    );
    assert.equal(outcome.error.recovery.command, "hark profile list");
    assert.equal(await Deno.readTextFile(path), before);
  });
  await withProfiles(undefined, async (ctx) => {
    const outcome = await runCli(ctx, ["profile", "use", "x"]);
    assert.equal(outcome.code, 2);
    assert.match(outcome.error!.message, /no profiles exist yet/);
    assert.equal(outcome.error!.recovery.command, "hark config init --profile x");
  });
  await withProfiles(CONFIG, async (ctx) => {
    const outcome = await runCli(ctx, ["profile", "use", "../x"]);
    assert.equal(outcome.code, 2);
    assert.match(outcome.error!.message, /Invalid profile name/);
  });
});

Deno.test("hark profile remove needs --yes without a terminal and changes nothing", async () => {
  await withProfiles(CONFIG, async (ctx, path) => {
    const before = await Deno.readTextFile(path);
    const outcome = await runCli(ctx, ["profile", "remove", "work"]);
    assert.equal(outcome.code, 2);
    assert.ok(outcome.error instanceof ValidationError);
    assert.equal(outcome.error.param, "--yes");
    assert.match(outcome.error.message, /pass --yes/);
    assert.equal(await Deno.readTextFile(path), before);
    assert.equal(ctx.keychain.entries.size, 6);
  });
});

Deno.test("hark profile remove --yes deletes the profile and the keychain entries it owns", async () => {
  await withProfiles(CONFIG, async (ctx, path) => {
    const outcome = await runCli(ctx, ["profile", "rm", "work", "--yes", "--json"]);
    assert.equal(outcome.code, 0, outcome.error?.message);
    const written = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(Object.keys(written.apps), ["default", "ci"]);
    assert.deepEqual(Object.keys(written.users), ["default"]);
    assert.equal(written.active_profile, undefined, "the active mark went with it");
    assert.deepEqual(written.preferences, CONFIG.preferences);
    assert.deepEqual(await ctx.keychain.list(), [
      "hark/default/app_secret",
      "hark/shared/token",
      "hark/workshop/app_secret",
    ]);
    assert.deepEqual(JSON.parse(ctx.stdout.text()), {
      removed: "work",
      keychain_entries: ["hark/work/app_secret", "hark/work/extra", "hark/work/user_token"],
    });
  });
});

Deno.test("hark profile remove deletes only the keychain entries under hark/<name>/", async () => {
  await withProfiles(CONFIG, async (ctx, path) => {
    const outcome = await runCli(ctx, ["profile", "remove", "default", "-y"]);
    assert.equal(outcome.code, 0, outcome.error?.message);
    // hark/shared/token is referenced by the profile but may serve others: it stays.
    assert.deepEqual(await ctx.keychain.list(), [
      "hark/shared/token",
      "hark/work/app_secret",
      "hark/work/extra",
      "hark/work/user_token",
      "hark/workshop/app_secret",
    ]);
    assert.match(ctx.stderr.text(), /Removed profile "default" and 1 keychain entries/);
    const written = JSON.parse(await Deno.readTextFile(path));
    assert.equal(written.active_profile, "work");
  });
});

Deno.test("hark profile remove of an unknown name exits 2", async () => {
  await withProfiles(CONFIG, async (ctx) => {
    const outcome = await runCli(ctx, ["profile", "remove", "nope", "--yes"]);
    assert.equal(outcome.code, 2);
    assert.match(outcome.error!.message, /known profiles: ci, default, work/);
    assert.equal(ctx.keychain.entries.size, 6);
  });
});

Deno.test("hark profile remove in a second config file deletes only that config's entries", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-profile-test-" });
  try {
    const path = join(dir, "second.json");
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        keychain_namespace: "work",
        apps: { work: { app_id: "cli_2", app_secret: "@keychain:hark/work/work/app_secret" } },
      }),
    );
    const keychain = new MemoryKeychain({
      // The default config's profile "work", and its profile "default" (which the namespace
      // "work" must not be mistaken for a profile of).
      "hark/work/app_secret": "default-config-work",
      "hark/work/user_token": "default-config-token",
      "hark/work/work/app_secret": "second-work",
      "hark/work/work/tenant_token": "second-tenant",
    });
    const ctx = createTestContext({ keychain, env: { XDG_CONFIG_HOME: dir, HARK_CONFIG: path } });
    const outcome = await runCli(ctx, ["profile", "remove", "work", "--yes", "--json"]);
    assert.equal(outcome.code, 0, outcome.error?.message);
    assert.deepEqual(await keychain.list(), ["hark/work/app_secret", "hark/work/user_token"]);
    assert.deepEqual(JSON.parse(ctx.stdout.text()).keychain_entries, [
      "hark/work/work/app_secret",
      "hark/work/work/tenant_token",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
