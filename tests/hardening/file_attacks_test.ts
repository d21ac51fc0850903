/**
 * Attacks on the files hark writes, run end to end against the real CLI and real files in a temp
 * folder (issue 12, item 5): links and folders planted at temporary names, folders other users
 * can write to, read-only folders, loose folder modes, and config files hostile to the parser
 * (invalid UTF-8, deep nesting). Every write must stay where it belongs, and every failure must
 * be a clear error (exit 1 or 2), never an internal one (exit 5).
 *
 * The runs are in process ({@link runInProcess}: the same command code, config, file keychain
 * and file system calls as a hark process, as the same user with the same umask, no Deno
 * start-up): what they check is what hark writes where, and what it answers, which the process
 * adds nothing to. One run stays a real hark process, as the wiring: the first write past a link
 * planted at the config's temp path.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { readStoredAppSecret } from "../../src/config/stored_secret.ts";
import { FileKeychain } from "../../src/keychain/file_keychain.ts";
import { createTestContext } from "../support/test_context.ts";
import { createHarkEnv, type HarkEnv, TEST_KEYCHAIN_PASSWORD } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";

const posix = Deno.build.os !== "windows";
const isRoot = posix && Deno.uid() === 0;
const INIT = ["config", "init", "--non-interactive", "--app-id", "cli_files", "--app-secret-stdin"];
const SET = ["config", "set", "apps.default.base_url", "https://open.feishu.cn"];

async function withHark(fn: (hark: HarkEnv) => Promise<void>): Promise<void> {
  const hark = await createHarkEnv();
  try {
    await fn(hark);
  } finally {
    await hark.cleanup();
  }
}

/** The stored value of `apps.default.base_url`, reading the file as it is. */
async function baseUrl(hark: HarkEnv): Promise<unknown> {
  const config = await hark.readConfig() as { apps?: { default?: { base_url?: string } } };
  return config.apps?.default?.base_url;
}

function mode(info: Deno.FileInfo): number {
  return info.mode! & 0o777;
}

Deno.test({
  name: "a link planted at the config's temp path never redirects the write",
  ignore: !posix,
  async fn() {
    await withHark(async (hark) => {
      const folder = join(hark.dir, "config");
      await Deno.mkdir(folder, { mode: 0o700 });
      await Deno.writeTextFile(hark.configPath, '{"apps": {"default": {"app_id": "cli_1"}}}');
      const victim = join(hark.dir, "victim");
      await Deno.writeTextFile(victim, "precious", { mode: 0o644 });
      await Deno.chmod(victim, 0o644);
      // The old fixed temp name, a dangling link there, and a guess at the new naming scheme.
      await Deno.symlink("../victim", `${hark.configPath}.tmp`);
      const run = await hark.run(SET);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(await Deno.readTextFile(victim), "precious");
      assert.ok((await Deno.lstat(hark.configPath)).isFile, "config.json must stay a file");
      await Deno.remove(`${hark.configPath}.tmp`);
      await Deno.symlink(join(hark.dir, "planted"), `${hark.configPath}.tmp`);
      await Deno.symlink("../victim", `${hark.configPath}.0000000000000000.tmp`);
      const again = await runInProcess(hark, [
        "config",
        "set",
        "apps.default.base_url",
        "https://x.test",
      ]);
      assert.equal(again.code, 0, again.stderr);

      assert.equal(await Deno.readTextFile(victim), "precious");
      assert.equal(mode(await Deno.stat(victim)), 0o644);
      assert.equal(await Deno.lstat(join(hark.dir, "planted")).catch(() => undefined), undefined);
      assert.ok((await Deno.lstat(hark.configPath)).isFile, "config.json must stay a file");
      assert.equal(mode(await Deno.stat(hark.configPath)), 0o600);
      assert.equal(await baseUrl(hark), "https://x.test");
    });
  },
});

Deno.test({
  name: "a config that is a link (a dotfiles setup) is written through: the link stays",
  ignore: !posix,
  async fn() {
    await withHark(async (hark) => {
      const folder = join(hark.dir, "config");
      await Deno.mkdir(folder, { mode: 0o700 });
      const victim = join(hark.dir, "victim.json");
      await Deno.writeTextFile(victim, '{"apps": {"default": {"app_id": "cli_1"}}}');
      await Deno.symlink("../victim.json", hark.configPath);
      // A link planted at the target's old temporary name is not followed either.
      await Deno.symlink("precious", `${victim}.tmp`);
      const run = await runInProcess(hark, SET);
      assert.equal(run.code, 0, run.stderr);
      assert.ok((await Deno.lstat(hark.configPath)).isSymlink, "config.json stays a link");
      assert.equal(await Deno.readLink(hark.configPath), "../victim.json");
      assert.deepEqual(JSON.parse(await Deno.readTextFile(victim)).apps.default, {
        app_id: "cli_1",
        base_url: "https://open.feishu.cn",
      });
      assert.equal(await baseUrl(hark), "https://open.feishu.cn");
      assert.equal(await Deno.lstat(join(hark.dir, "precious")).catch(() => undefined), undefined);
    });
  },
});

Deno.test("a folder or file at the config's temp path does not stop the write", async () => {
  await withHark(async (hark) => {
    await Deno.mkdir(`${hark.configPath}.tmp`, { recursive: true });
    await Deno.writeTextFile(`${hark.configPath}.tmp/keep`, "x");
    const run = await runInProcess(hark, SET);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await baseUrl(hark), "https://open.feishu.cn");
    assert.equal(await Deno.readTextFile(`${hark.configPath}.tmp/keep`), "x");
  });
});

Deno.test({
  name: "a link planted at a keychain entry's temp path never redirects the secret",
  ignore: !posix,
  async fn() {
    await withHark(async (hark) => {
      const first = await runInProcess(hark, INIT, { stdin: "first-secret\n" });
      assert.equal(first.code, 0, first.stderr);
      const keychainDir = join(hark.dir, "data", "keychain");
      const entries = (await Array.fromAsync(Deno.readDir(keychainDir))).map((e) => e.name);
      assert.equal(entries.length, 1, String(entries));
      const victim = join(hark.dir, "victim");
      await Deno.writeTextFile(victim, "precious");
      await Deno.symlink(victim, join(keychainDir, `${entries[0]}.tmp`));

      const second = await runInProcess(hark, [...INIT, "--force"], { stdin: "second-secret\n" });
      assert.equal(second.code, 0, second.stderr);
      assert.equal(await Deno.readTextFile(victim), "precious");
      const ctx = createTestContext({
        env: {
          HARK_DATA_DIR: join(hark.dir, "data"),
          HARK_KEYCHAIN_PASSWORD: TEST_KEYCHAIN_PASSWORD,
        },
      });
      const [path] = await new FileKeychain(ctx).list();
      const stored = await new FileKeychain(ctx).get(path);
      assert.equal(readStoredAppSecret(stored ?? "").secret, "second-secret");
    });
  },
});

Deno.test({
  name: "hark refuses to write in a folder other users can write to and says how to fix it",
  ignore: !posix,
  async fn() {
    await withHark(async (hark) => {
      let configPath = hark.configPath;
      let folder = join(hark.dir, "config");
      if (isRoot) {
        // A group-writable folder that belongs to someone else.
        await Deno.mkdir(folder, { mode: 0o700 });
        await Deno.writeTextFile(configPath, '{"apps": {"default": {"app_id": "cli_1"}}}');
        await Deno.chmod(folder, 0o775);
        await Deno.chown(folder, 65534, 65534);
      } else {
        // /tmp: everyone's, and not ours.
        folder = "/tmp";
        configPath = join(folder, `hark-attack-${crypto.randomUUID()}.json`);
      }
      const before = await Deno.readFile(configPath).catch(() => undefined);
      try {
        const run = await runInProcess(hark, SET, { env: { HARK_CONFIG: configPath } });
        assert.equal(run.code, 2, run.stderr);
        // An existing config there is refused as soon as it is read (issue 21), a new one when
        // it would be written.
        assert.match(
          run.stderr,
          new RegExp(`(Cannot write in the folder|its folder) "${RegExp.escape(folder)}"`),
        );
        assert.match(run.stderr, /chmod go-w/);
        assert.deepEqual(await Deno.readFile(configPath).catch(() => undefined), before);
        const left = (await Array.fromAsync(Deno.readDir(folder))).map((e) => e.name)
          .filter((name) =>
            name.startsWith(configPath.split("/").at(-1)!) && name !== "config.json"
          );
        assert.deepEqual(left, []);
      } finally {
        if (!isRoot) await Deno.remove(configPath).catch(() => {});
      }
    });
  },
});

Deno.test({
  name: "the file keychain refuses a keychain folder that belongs to someone else and is open",
  ignore: !isRoot, // only root can give a folder to another user
  async fn() {
    await withHark(async (hark) => {
      const keychainDir = join(hark.dir, "data", "keychain");
      await Deno.mkdir(keychainDir, { recursive: true });
      await Deno.chmod(keychainDir, 0o777);
      await Deno.chown(keychainDir, 65534, 65534);
      const run = await runInProcess(hark, INIT, { stdin: "secret\n" });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`Cannot write in the folder "${keychainDir}"`));
      assert.deepEqual(await Array.fromAsync(Deno.readDir(keychainDir)), []);
    });
  },
});

/** Makes `folder` read-only even for root (immutable), or undefined when that cannot be done. */
async function makeReadOnly(folder: string): Promise<(() => Promise<void>) | undefined> {
  if (!isRoot) {
    await Deno.chmod(folder, 0o500);
    return () => Deno.chmod(folder, 0o700);
  }
  const chattr = (flag: string) =>
    new Deno.Command("chattr", { args: [flag, folder], stdout: "null", stderr: "null" }).output()
      .then((o) => o.success, () => false);
  if (!(await chattr("+i"))) return undefined;
  return async () => {
    await chattr("-i");
  };
}

Deno.test({
  name: "a read-only config folder is a clear error naming it, never an internal one",
  ignore: !posix,
  async fn(t) {
    await withHark(async (hark) => {
      const folder = join(hark.dir, "config");
      await Deno.mkdir(folder, { mode: 0o700 });
      await Deno.writeTextFile(hark.configPath, '{"apps": {"default": {"app_id": "cli_1"}}}');
      const undo = await makeReadOnly(folder);
      if (!undo) {
        await t.step({ name: "needs chattr +i as root", ignore: true, fn() {} });
        return;
      }
      try {
        const run = await runInProcess(hark, SET);
        assert.ok(run.code === 1 || run.code === 2, `exit ${run.code}: ${run.stderr}`);
        assert.match(run.stderr, /permission denied/);
        assert.ok(run.stderr.includes(`"${folder}"`), run.stderr);
        assert.doesNotMatch(run.stderr, /internal/i);
      } finally {
        await undo();
      }
      assert.equal(await baseUrl(hark), undefined);
    });
  },
});

Deno.test({
  name: "loose config and keychain folders of hark's own are tightened to 0700",
  ignore: !posix,
  async fn() {
    await withHark(async (hark) => {
      const configFolder = join(hark.env.XDG_CONFIG_HOME, "hark");
      const keychainDir = join(hark.dir, "data", "keychain");
      for (const folder of [configFolder, keychainDir]) {
        await Deno.mkdir(folder, { recursive: true });
        await Deno.chmod(folder, 0o755);
      }
      const { HARK_CONFIG: _, ...env } = hark.env;
      const run = await runInProcess({ ...hark, env }, INIT, { stdin: "secret\n" });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(await Deno.stat(join(configFolder, "config.json")));
      assert.equal(mode(await Deno.stat(configFolder)), 0o700);
      assert.equal(mode(await Deno.stat(keychainDir)), 0o700);
    });
  },
});

Deno.test("a config with invalid UTF-8 is a malformed file and is never rewritten", async () => {
  await withHark(async (hark) => {
    await Deno.mkdir(join(hark.dir, "config"), { recursive: true });
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{\n  "apps": {"default": {"app_id": "cli_'),
      0xc3,
      0x28,
      ...new TextEncoder().encode('"}}\n}\n'),
    ]);
    await Deno.writeFile(hark.configPath, bytes);
    const run = await runInProcess(hark, SET);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /Cannot parse the config file ".+": line 2, column 39: .*not valid UTF-8/,
    );
    assert.deepEqual(await Deno.readFile(hark.configPath), bytes);
  });
});

Deno.test("a deeply nested config is a malformed file, not a crash", async () => {
  await withHark(async (hark) => {
    await Deno.mkdir(join(hark.dir, "config"), { recursive: true });
    const text = '{"x": ' + "[".repeat(100_000) + "]".repeat(100_000) + "}";
    await Deno.writeTextFile(hark.configPath, text);
    for (const args of [SET, ["--json", "config", "get"]]) {
      const run = await runInProcess(hark, args);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /nested deeper than 64 levels/);
    }
    assert.equal(await Deno.readTextFile(hark.configPath), text);
  });
});

Deno.test("--debug never shows a secret from a malformed config", async () => {
  await withHark(async (hark) => {
    await Deno.mkdir(join(hark.dir, "config"), { recursive: true });
    const secret = "AppSecretXYZ1234567890";
    await Deno.writeTextFile(
      hark.configPath,
      `{"apps": {"default": {"app_id": "cli_1", "app_secret": ${secret}}}}`,
    );
    const run = await runInProcess(hark, ["--debug", "config", "get"]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /line 1, column 56/);
    for (let i = 0; i + 6 <= secret.length; i++) {
      assert.ok(!run.stderr.includes(secret.slice(i, i + 6)), run.stderr);
    }
  });
});
