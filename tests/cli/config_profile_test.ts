/**
 * End-to-end tests of `config` and `profile`, with a throwaway config file and the
 * encrypted-file keychain. The rules run in process (`runInProcess`: the same command code,
 * files and keychain, the error rendered as `main.ts` renders it), `--version` and `--help`
 * too. Two runs are about the process and stay real hark processes: what `config init` leaves
 * on disk (modes, a keychain entry at the production key derivation), and the exact text of an
 * error as `main.ts` writes it to stderr.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv, type HarkEnv, type HarkRun } from "../support/hark_env.ts";
import { runInProcess } from "../support/world.ts";

const SECRET = "e2e-app-secret-9f8e7d6c5b4a";
const INIT = ["config", "init", "--non-interactive", "--app-id", "cli_e2e", "--app-secret-stdin"];

/**
 * Every stderr seen, checked for stack traces at the end of each test; runs in process unless
 * `subprocess`.
 */
function tracker(env: HarkEnv, subprocess: boolean) {
  const runs: HarkRun[] = [];
  return {
    async run(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
      const result = subprocess
        ? await env.run(args, options)
        : await runInProcess(env, args, options);
      runs.push(result);
      return result;
    },
    /** A real hark process, whatever `subprocess` says. */
    async runProcess(args: string[]) {
      const result = await env.run(args);
      runs.push(result);
      return result;
    },
    assertNoStackTraces() {
      for (const { stderr } of runs) {
        assert.ok(!/^\s+at /m.test(stderr), `stack trace in stderr:\n${stderr}`);
        assert.ok(!/\.ts:\d+/.test(stderr), `source location in stderr:\n${stderr}`);
      }
    },
  };
}

async function withEnv(
  fn: (env: HarkEnv, hark: ReturnType<typeof tracker>) => Promise<void>,
  { subprocess = false } = {},
) {
  const env = await createHarkEnv();
  try {
    const hark = tracker(env, subprocess);
    await fn(env, hark);
    hark.assertNoStackTraces();
  } finally {
    await env.cleanup();
  }
}

/** Every regular file under `dir`. */
async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await filesUnder(path));
    else if (entry.isFile) files.push(path);
  }
  return files;
}

function envelope(stderr: string) {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, `one JSON line on stderr:\n${stderr}`);
  const parsed = JSON.parse(lines[0]);
  assert.deepEqual(Object.keys(parsed), ["error"]);
  assert.deepEqual(Object.keys(parsed.error).sort(), ["code", "message", "recovery", "type"]);
  assert.deepEqual(Object.keys(parsed.error.recovery).sort(), ["command", "suggestion"]);
  return parsed.error;
}

Deno.test("config init stores the secret encrypted in the keychain, a reference in a 0600 file", async () => {
  await withEnv(async (env, hark) => {
    const result = await hark.run(INIT, { stdin: `${SECRET}\n` });
    assert.equal(result.code, 0, result.stderr);
    // HARK_CONFIG is not the default path: the config's entries carry its own namespace.
    const config = await env.readConfig();
    const namespace = config.keychain_namespace as string;
    assert.match(namespace, /^[0-9a-f]{10}$/);
    const secretPath = `hark/${namespace}/default/app_secret`;
    // Piped stdout: the result as JSON, with the reference and never the secret.
    assert.deepEqual(JSON.parse(result.stdout), {
      profile: "default",
      app_id: "cli_e2e",
      app_secret: `@keychain:${secretPath}`,
      base_url: "https://open.larksuite.com",
      keychain: "file",
      config: env.configPath,
    });
    assert.ok(
      result.stderr.includes(`The app secret is in the file keychain at ${secretPath}`),
      result.stderr,
    );
    assert.deepEqual(config, {
      keychain_namespace: namespace,
      apps: {
        default: {
          app_id: "cli_e2e",
          app_secret: `@keychain:${secretPath}`,
          base_url: "https://open.larksuite.com",
        },
      },
    });
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(env.configPath)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(join(env.configPath, ".."))).mode! & 0o777, 0o700);
    }
    const files = await filesUnder(env.dir);
    const keychainFiles = files.filter((f) => f.includes(`${join("data", "keychain")}`));
    assert.equal(keychainFiles.length, 1, files.join("\n"));
    const record = JSON.parse(await Deno.readTextFile(keychainFiles[0]));
    assert.ok(record.ciphertext, "the keychain file holds ciphertext");
    const b64 = btoa(SECRET);
    for (const file of files) {
      const text = new TextDecoder().decode(await Deno.readFile(file));
      assert.ok(!text.includes(SECRET), `plaintext secret in ${file}`);
      assert.ok(!text.includes(b64), `base64 secret in ${file}`);
    }
    assert.deepEqual(await filesUnder(join(env.configPath, "..")), [env.configPath]);
  }, { subprocess: true });
});

Deno.test("config init over an existing profile exits 2 naming --force; --force replaces it", async () => {
  await withEnv(async (env, hark) => {
    assert.equal((await hark.run(INIT, { stdin: SECRET })).code, 0);
    const before = await Deno.readTextFile(env.configPath);

    const again = await hark.run([...INIT.slice(0, 4), "cli_other", "--app-secret-stdin"], {
      stdin: "other-secret-value",
    });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /^error: Profile "default" already exists\n/);
    assert.match(again.stderr, /--force/);
    assert.equal(await Deno.readTextFile(env.configPath), before);

    const forced = await hark.run(
      [...INIT.slice(0, 4), "cli_other", "--app-secret-stdin", "--force", "--base-url", "feishu"],
      { stdin: "other-secret-value" },
    );
    assert.equal(forced.code, 0, forced.stderr);
    const config = await env.readConfig() as { apps: Record<string, Record<string, string>> };
    assert.equal(config.apps.default.app_id, "cli_other");
    assert.equal(config.apps.default.base_url, "https://open.feishu.cn");
  });
});

Deno.test("config init without a terminal exits 2 naming the missing flag", async () => {
  await withEnv(async (_env, hark) => {
    const noId = await hark.run(["config", "init", "--app-secret-stdin"], { stdin: SECRET });
    assert.equal(noId.code, 2);
    assert.match(noId.stderr, /^error: Missing --app-id/);
    const noSecret = await hark.run(["config", "init", "--app-id", "cli_1", "--json"]);
    assert.equal(noSecret.code, 2);
    const error = envelope(noSecret.stderr);
    assert.equal(error.code, 2);
    assert.equal(error.type, "validation");
    assert.match(error.message, /--app-secret-stdin/);
  });
});

Deno.test("config get and set check every kind of key, showing secrets as references", async () => {
  await withEnv(async (env, hark) => {
    assert.equal((await hark.run(INIT, { stdin: SECRET })).code, 0);
    const good: [string, string, unknown][] = [
      ["preferences.output_format", "csv", "csv"],
      ["preferences.color", "false", false],
      ["apps.default.base_url", "https://open.feishu.cn/", "https://open.feishu.cn"],
      ["apps.work.app_secret", "@env:WORK_SECRET", "@env:WORK_SECRET"],
      ["active_profile", "default", "default"],
    ];
    for (const [key, value, stored] of good) {
      const set = await hark.run(["config", "set", key, value]);
      assert.equal(set.code, 0, `${key}: ${set.stderr}`);
      const get = await hark.run(["config", "get", key, "--json"]);
      assert.equal(get.code, 0, get.stderr);
      assert.deepEqual(JSON.parse(get.stdout), { key, value: stored });
    }
    const plain = await hark.run(["config", "get", "preferences.output_format"]);
    assert.equal(plain.stdout, "csv\n");

    const before = await Deno.readTextFile(env.configPath);
    const bad: [string, string, RegExp][] = [
      ["preferences.output_format", "xml", /expected one of table, json, ndjson, csv/],
      ["preferences.color", "purple", /expected true or false/],
      ["apps.default.base_url", "ftp://files", /http\(s\) URL/],
      // hark adds /open-apis/… itself: a path would be doubled, so the origin is asked for.
      [
        "apps.default.base_url",
        "http://127.0.0.1:9/open-apis",
        /origin[\s\S]*Use http:\/\/127\.0\.0\.1:9;/,
      ],
      ["apps.x.app_secret", "plaintext", /Refusing to write a plaintext secret/],
      ["nope.key", "1", /Unknown config key "nope\.key"/],
    ];
    for (const [key, value, pattern] of bad) {
      const result = await hark.run(["config", "set", key, value]);
      assert.equal(result.code, 2, `${key}=${value}`);
      assert.match(result.stderr, pattern);
      assert.equal(result.stdout, "");
    }
    assert.equal(await Deno.readTextFile(env.configPath), before, "refused sets wrote nothing");

    const namespace = (await env.readConfig()).keychain_namespace;
    const secret = await hark.run(["config", "get", "apps.default.app_secret"]);
    assert.equal(secret.stdout, `@keychain:hark/${namespace}/default/app_secret\n`);
    const all = await hark.run(["config", "get"]);
    assert.equal(all.code, 0);
    assert.ok(!all.stdout.includes(SECRET));
    assert.ok(
      all.stdout.includes(`"app_secret": "@keychain:hark/${namespace}/default/app_secret"`),
    );

    const missing = await hark.run(["config", "get", "apps.nobody.app_id"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /"apps\.nobody\.app_id" is not set/);
  });
});

Deno.test("a base URL with a path is exit 2 naming the setting, from a flag, the variable or the file", async () => {
  await withEnv(async (env, hark) => {
    const init = await hark.run([...INIT, "--base-url", "https://open.feishu.cn/open-apis"], {
      stdin: SECRET,
    });
    assert.equal(init.code, 2, init.stderr);
    assert.match(init.stderr, /--base-url "https:\/\/open\.feishu\.cn\/open-apis"/);
    assert.match(init.stderr, /Use https:\/\/open\.feishu\.cn;/);
    assert.equal((await hark.run(INIT, { stdin: SECRET })).code, 0);

    const call = ["api", "GET", "/open-apis/authen/v1/user_info", "--json"];
    const variable = await hark.run(call, {
      env: { HARK_BASE_URL: "http://127.0.0.1:9/open-apis", HARK_USER_ACCESS_TOKEN: "u-x" },
    });
    assert.equal(variable.code, 2, variable.stderr);
    const fromEnv = envelope(variable.stderr);
    assert.match(fromEnv.message, /^Invalid HARK_BASE_URL "http:\/\/127\.0\.0\.1:9\/open-apis"/);
    assert.match(fromEnv.recovery.suggestion, /^Use http:\/\/127\.0\.0\.1:9;/);

    const config = await env.readConfig() as { apps: { default: Record<string, unknown> } };
    config.apps.default.base_url = "http://127.0.0.1:9/open-apis/";
    await env.writeConfig(config);
    const edited = await hark.run(call, { env: { HARK_USER_ACCESS_TOKEN: "u-x" } });
    assert.equal(edited.code, 2, edited.stderr);
    const fromFile = envelope(edited.stderr);
    assert.match(fromFile.message, /"apps\.default\.base_url"/);
    assert.equal(
      fromFile.recovery.command,
      "hark config set apps.default.base_url http://127.0.0.1:9",
    );
  });
});

Deno.test("profile list in json, table and csv; profile use switches, unknown exits 2", async () => {
  await withEnv(async (env, hark) => {
    assert.equal((await hark.run(INIT, { stdin: SECRET })).code, 0);
    // Adding a second app does not switch to it.
    assert.equal((await hark.run([...INIT, "--profile", "work"], { stdin: SECRET })).code, 0);
    assert.equal(
      (await hark.run(["profile", "use", "work"])).code,
      0,
    );

    const json = await hark.run(["profile", "list", "--json"]);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), [
      {
        active: false,
        app_id: "cli_e2e",
        base_url: "https://open.larksuite.com",
        name: "default",
        user: "",
      },
      {
        active: true,
        app_id: "cli_e2e",
        base_url: "https://open.larksuite.com",
        name: "work",
        user: "",
      },
    ]);
    const csv = await hark.run(["--format", "csv", "profile", "list"]);
    assert.equal(
      csv.stdout,
      ",NAME,APP ID,BASE URL,USER\r\n,default,cli_e2e,https://open.larksuite.com,\r\n" +
        "*,work,cli_e2e,https://open.larksuite.com,\r\n",
    );
    const table = await hark.run(["profile", "list", "--format", "table"]);
    assert.equal(
      table.stdout,
      "   NAME     APP ID   BASE URL                    USER\n" +
        "   default  cli_e2e  https://open.larksuite.com\n" +
        "*  work     cli_e2e  https://open.larksuite.com\n",
    );
    assert.ok(!table.stdout.includes("\x1b"), "no colour when piped");

    const use = await hark.run(["profile", "use", "default"]);
    assert.equal(use.code, 0, use.stderr);
    assert.equal((await env.readConfig()).active_profile, "default");

    const unknown = await hark.run(["profile", "use", "staging"]);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /^error: Unknown profile "staging"; known profiles: default, work\n/,
    );
    const unknownJson = await hark.run(["profile", "use", "staging", "--json"]);
    assert.equal(unknownJson.code, 2);
    const error = envelope(unknownJson.stderr);
    assert.equal(error.code, 2);
    assert.equal(error.recovery.command, "hark profile list");
  });
});

Deno.test("profile remove needs --yes without a terminal, then deletes its keychain entries", async () => {
  await withEnv(async (env, hark) => {
    assert.equal((await hark.run(INIT, { stdin: SECRET })).code, 0);
    assert.equal((await hark.run([...INIT, "--profile", "old"], { stdin: SECRET })).code, 0);
    const keychainDir = join(env.dir, "data", "keychain");
    assert.equal((await filesUnder(keychainDir)).length, 2);

    const refused = await hark.run(["profile", "remove", "old"]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--yes/);
    assert.match(refused.stderr, /Run: hark profile remove old --yes\n/);
    assert.equal((await filesUnder(keychainDir)).length, 2);

    const removed = await hark.run(["profile", "remove", "old", "--yes", "--json"]);
    assert.equal(removed.code, 0, removed.stderr);
    const namespace = (await env.readConfig()).keychain_namespace;
    assert.deepEqual(JSON.parse(removed.stdout), {
      keychain_entries: [`hark/${namespace}/old/app_secret`],
      removed: "old",
    });
    const left = await filesUnder(keychainDir);
    assert.equal(left.length, 1);
    assert.ok(!left[0].includes("old"), left[0]);
    const config = await env.readConfig() as { apps: Record<string, unknown> };
    assert.deepEqual(Object.keys(config.apps), ["default"]);
    assert.equal((config as { active_profile?: string }).active_profile, undefined);
  });
});

Deno.test("a malformed config exits 2 naming file, line and column, and is never changed", async () => {
  await withEnv(async (env, hark) => {
    await Deno.mkdir(join(env.configPath, ".."), { recursive: true });
    const broken = '{\n  "apps": {\n    "default": { "app_id": "cli_1", }\n  }\n}\n';
    await Deno.writeTextFile(env.configPath, broken);
    const commands = [
      ["config", "get", "apps.default.app_id"],
      ["config", "set", "preferences.color", "true"],
      ["profile", "list"],
      ["profile", "use", "default"],
      ["profile", "remove", "default", "--yes"],
      [...INIT, "--force"],
    ];
    for (const args of commands) {
      const result = await hark.run(args, { stdin: SECRET });
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.ok(result.stderr.includes(`"${env.configPath}"`), result.stderr);
      assert.match(result.stderr, /line 3, column 37/, result.stderr);
      assert.equal(await Deno.readTextFile(env.configPath), broken, args.join(" "));
    }
    const json = await hark.run(["config", "get", "--json"]);
    const error = envelope(json.stderr);
    assert.equal(error.code, 2);
    assert.match(error.message, /line 3, column 37/);
    assert.deepEqual(await filesUnder(join(env.configPath, "..")), [env.configPath]);
  });
});

Deno.test("errors are text on stderr by default and the JSON envelope with --json", async () => {
  await withEnv(async (_env, hark) => {
    const text = await hark.runProcess(["confg"]);
    assert.equal(text.code, 2);
    assert.equal(text.stdout, "");
    assert.equal(
      text.stderr,
      "error: Unknown command 'confg' (did you mean config?)\n  See the usage of hark\n" +
        "  Run: hark --help\n",
    );
    const json = await hark.run(["--json", "config", "get", "--bogus"]);
    assert.equal(json.code, 2);
    assert.equal(json.stdout, "");
    assert.deepEqual(envelope(json.stderr), {
      code: 2,
      type: "validation",
      message: "Unknown option '--bogus'",
      recovery: {
        suggestion: "See the usage of hark config get",
        command: "hark config get --help",
      },
    });
    const format = await hark.run(["--format", "xml", "profile", "list"]);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /argument 'xml' is invalid/);
  });
});

Deno.test("the config's output_format json makes errors JSON too", async () => {
  await withEnv(async (_env, hark) => {
    assert.equal((await hark.run(["config", "set", "preferences.output_format", "json"])).code, 0);
    const result = await hark.run(["profile", "use", "nobody"]);
    assert.equal(result.code, 2);
    assert.equal(envelope(result.stderr).code, 2);
  });
});

Deno.test("--version, --help and help exit 0 with the text on stdout", async () => {
  await withEnv(async (_env, hark) => {
    const denoJson = JSON.parse(
      await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
    );
    const { code, stdout, stderr } = await hark.run(["--version"]);
    assert.deepEqual({ code, stdout, stderr }, {
      code: 0,
      stdout: `${denoJson.version}\n`,
      stderr: "",
    });
    for (const args of [["--help"], ["help", "config"], ["profile", "use", "--help"]]) {
      const result = await hark.run(args);
      assert.equal(result.code, 0, args.join(" "));
      assert.match(result.stdout, /^Usage: hark/);
      assert.match(result.stdout, /Examples:/);
      assert.equal(result.stderr, "");
    }
  });
});
