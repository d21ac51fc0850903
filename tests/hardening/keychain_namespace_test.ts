/**
 * Issue 12, item 3: two config files never share keychain entries. One home, one file keychain,
 * two configs: the default one (no HARK_CONFIG) and a second one (HARK_CONFIG). Whatever the
 * second one does (config init, sign in as someone else, sign out, remove a profile), the first
 * keeps its own app secret and its own user; a config that refers to the first one's entries is
 * refused (issue 21: it used to be migrated by copying them); and nothing replaces an entry this
 * config does not refer to without --force.
 *
 * The runs are in process ({@link runInProcess}: the same command code, config and file keychain
 * as a hark process, no Deno start-up): what they check is which entries a config reads and
 * writes, which the process adds nothing to. One run stays a real hark process, as the wiring:
 * the first config's bot status after the second's `config init`.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { readStoredAppSecret } from "../../src/config/stored_secret.ts";
import type { FileKeychain } from "../../src/keychain/file_keychain.ts";
import type { Sandbox } from "../../sandbox/mod.ts";
import type { HarkEnv, HarkRun } from "../support/hark_env.ts";
import { homeKeychain, requestLog, runInProcess, signIn, startWorld } from "../support/world.ts";

/** Two configs in one home: `first` at the default path, `second` at HARK_CONFIG. */
interface Homes {
  sb: Sandbox;
  first: HarkEnv;
  second: HarkEnv;
  keychain: FileKeychain;
  close(): Promise<void>;
}

async function twoConfigs(): Promise<Homes> {
  const world = await startWorld({ profiles: [] });
  const { sb, home: second } = world;
  const firstEnv: Record<string, string> = { ...second.env };
  delete firstEnv.HARK_CONFIG;
  const firstPath = join(second.env.XDG_CONFIG_HOME, "hark", "config.json");
  const first: HarkEnv = {
    ...second,
    configPath: firstPath,
    env: firstEnv,
    run: (args, options = {}) =>
      second.run(args, { ...options, env: { HARK_CONFIG: undefined, ...options.env } }),
    start: (args, options = {}) =>
      second.start(args, { ...options, env: { HARK_CONFIG: undefined, ...options.env } }),
    readConfig: async () => JSON.parse(await Deno.readTextFile(firstPath)),
  };
  const keychain = homeKeychain(second);
  return {
    sb,
    first,
    second,
    keychain,
    close: () => world.close(),
  };
}

async function init(
  home: HarkEnv,
  sb: Sandbox,
  secret = sb.appSecret,
  extra: string[] = [],
): Promise<void> {
  // In process (the same command code): the secret is then written with the test worlds' few
  // PBKDF2 iterations, and the runs after need no 600,000-iteration derivation to read it.
  const run = await runInProcess(home, [
    "config",
    "init",
    "--non-interactive",
    "--app-id",
    sb.appId,
    "--app-secret-stdin",
    "--base-url",
    sb.baseUrl,
    ...extra,
  ], { stdin: secret });
  assert.equal(run.code, 0, run.stderr);
}

/** Signs in (in process: the device flow's waits are not this test's), approved as `openId`. */
async function login(home: HarkEnv, sb: Sandbox, openId: string, extra: string[] = []) {
  return await signIn(home, sb, { openId, args: extra });
}

async function whoAmI(home: HarkEnv): Promise<HarkRun & { openId?: string }> {
  const run = await runInProcess(home, ["api", "GET", "/open-apis/authen/v1/user_info", "--json"]);
  return { ...run, openId: run.code === 0 ? JSON.parse(run.stdout).open_id : undefined };
}

Deno.test("config init of a second config file never overwrites the first one's app secret", async () => {
  const homes = await twoConfigs();
  try {
    await init(homes.first, homes.sb);
    await init(homes.second, homes.sb, "the-second-config-s-own-secret");
    const bot = await homes.first.run(["auth", "status", "--as", "bot", "--json"]);
    assert.equal(bot.code, 0, `the first config's app secret was replaced: ${bot.stderr}`);
    assert.equal(JSON.parse(bot.stdout).state, "valid");
    const second = await homes.second.readConfig();
    assert.match(second.keychain_namespace as string, /^[0-9a-f]{10}$/);
    // Each secret is kept with the service it was stored for.
    assert.deepEqual(
      readStoredAppSecret(
        (await homes.keychain.get(`hark/${second.keychain_namespace}/default/app_secret`))!,
      ),
      { secret: "the-second-config-s-own-secret", origin: homes.sb.baseUrl },
    );
    assert.deepEqual(
      readStoredAppSecret((await homes.keychain.get("hark/default/app_secret"))!),
      { secret: homes.sb.appSecret, origin: homes.sb.baseUrl },
    );
  } finally {
    await homes.close();
  }
});

Deno.test("a second config that signs in as someone else never changes whose token the first uses", async () => {
  const homes = await twoConfigs();
  const [ana, bob] = homes.sb.users;
  try {
    await init(homes.first, homes.sb);
    await init(homes.second, homes.sb);
    await login(homes.first, homes.sb, ana.open_id);
    await login(homes.second, homes.sb, bob.open_id);

    assert.equal((await whoAmI(homes.first)).openId, ana.open_id);
    assert.equal((await whoAmI(homes.second)).openId, bob.open_id);
    const status = await runInProcess(homes.first, ["auth", "status", "--json"]);
    assert.equal(JSON.parse(status.stdout).user.open_id, ana.open_id);

    // Signing out of the second, and removing its profile, leave the first signed in.
    assert.equal((await runInProcess(homes.second, ["auth", "logout"])).code, 0);
    assert.equal((await whoAmI(homes.second)).code, 3);
    assert.equal(
      (await runInProcess(homes.second, ["profile", "remove", "default", "--yes"])).code,
      0,
    );
    assert.equal((await whoAmI(homes.first)).openId, ana.open_id);
    const left = await homes.keychain.list();
    assert.ok(left.includes("hark/default/app_secret"), left.join(", "));
    assert.ok(left.includes("hark/default/user_token"), left.join(", "));
    assert.ok(left.every((path) => path.split("/").length === 3), left.join(", "));
  } finally {
    await homes.close();
  }
});

Deno.test("a config that refers to the default config's entries is refused until it has its own", async () => {
  const homes = await twoConfigs();
  const [ana, bob] = homes.sb.users;
  try {
    await init(homes.first, homes.sb);
    await login(homes.first, homes.sb, ana.open_id);
    // The second config as hark wrote it before namespaces: the same references as the first.
    await Deno.mkdir(dirname(homes.second.configPath), { recursive: true });
    await Deno.copyFile(homes.first.configPath, homes.second.configPath);
    const before = await homes.keychain.list();

    const refused = await whoAmI(homes.second);
    assert.equal(refused.code, 2, refused.stderr);
    const error = JSON.parse(refused.stderr).error;
    assert.equal(
      error.message,
      `Refusing users.default.access_token in "${homes.second.configPath}": ` +
        `"@keychain:hark/default/user_token" is not an entry of this config file (it has no ` +
        "keychain entries of its own yet); a config file reads only its own keychain entries",
    );
    assert.equal(error.recovery.command, "hark auth login");
    const bot = await runInProcess(homes.second, ["auth", "status", "--as", "bot", "--json"]);
    assert.equal(bot.code, 2, bot.stderr);
    assert.match(JSON.parse(bot.stderr).error.message, /^Refusing apps\.default\.app_secret in/);
    assert.deepEqual(await homes.keychain.list(), before, "nothing copied, nothing changed");

    // Once it stores its own secret and signs in, it works, and the first is untouched.
    await init(homes.second, homes.sb, homes.sb.appSecret, ["--force"]);
    await login(homes.second, homes.sb, bob.open_id);
    assert.equal((await whoAmI(homes.second)).openId, bob.open_id);
    assert.equal((await whoAmI(homes.first)).openId, ana.open_id);
  } finally {
    await homes.close();
  }
});

Deno.test("auth login never replaces an entry this config does not refer to without --force", async () => {
  const homes = await twoConfigs();
  const [ana] = homes.sb.users;
  try {
    await init(homes.first, homes.sb);
    // Someone else's sign-in at the path the default config would use.
    await homes.keychain.set("hark/default/user_token", '{"access_token":"u-other"}');
    const refused = await runInProcess(homes.first, ["auth", "login", "--json"]);
    assert.equal(refused.code, 2, refused.stderr);
    const error = JSON.parse(refused.stderr).error;
    assert.match(error.message, /"hark\/default\/user_token": that keychain entry exists/);
    assert.equal(error.recovery.command, "hark auth login --force");
    const log = await requestLog(homes.sb);
    assert.ok(!log.some((r) => r.path.startsWith("/oauth/")), "no sign-in was started");
    assert.equal(await homes.keychain.get("hark/default/user_token"), '{"access_token":"u-other"}');

    await login(homes.first, homes.sb, ana.open_id, ["--force"]);
    assert.equal((await whoAmI(homes.first)).openId, ana.open_id);
  } finally {
    await homes.close();
  }
});
