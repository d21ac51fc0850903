import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext, type TestContext } from "../../tests/support/test_context.ts";
import { ValidationError } from "../errors/mod.ts";
import { loadConfig, parseConfig, updateConfig } from "./config_file.ts";

async function withConfigDir(
  fn: (ctx: TestContext, path: string, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-config-test-" });
  try {
    const path = join(dir, "nested", "hark", "config.json");
    const ctx = createTestContext({ now: Date.now(), env: { HARK_CONFIG: path } });
    await fn(ctx, path, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function assertMalformed(path: string, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ValidationError, String(error));
    assert.equal(error.code, 2);
    assert.ok(error.message.startsWith(`Cannot parse the config file "${path}": `), error.message);
    assert.match(error.message, pattern);
    assert.match(error.recovery.suggestion, /never overwrites/);
    return true;
  };
}

Deno.test("loadConfig() gives an empty config when the file is absent", async () => {
  await withConfigDir(async (ctx, path) => {
    assert.deepEqual(await loadConfig(ctx), {});
    assert.equal(await ctx.fs.exists(path), false);
  });
});

Deno.test("loadConfig() reads HARK_CONFIG's file", async () => {
  await withConfigDir(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, '{"apps":{"default":{"app_id":"cli_1"}},"active_profile":"x"}');
    assert.deepEqual(await loadConfig(ctx), {
      apps: { default: { app_id: "cli_1" } },
      active_profile: "x",
    });
  });
});

Deno.test("parseConfig() names file, line and column of a syntax error", () => {
  const text = '{\n  "apps": {},\n  oops\n}\n';
  assert.throws(
    () => parseConfig(text, "/etc/hark.json"),
    assertMalformed("/etc/hark.json", /line 3, column 3: /),
  );
  assert.throws(
    () => parseConfig('{"a": 1} trailing', "/c.json"),
    assertMalformed("/c.json", /line 1, column 10: /),
  );
});

Deno.test("parseConfig() names line and column of a truncated file", () => {
  assert.throws(
    () => parseConfig('{\n  "apps": ', "/c.json"),
    assertMalformed("/c.json", /line 2, column 11: the JSON ends too early$/),
  );
});

Deno.test("parseConfig() finds the position of every kind of syntax error", () => {
  const cases: [string, string][] = [
    ['{\n  "app_secret": plaintext-secret\n}', "line 2, column 17"],
    ['{"a": [1, 2,]}', "line 1, column 13"],
    ['{"a": "bad \\q escape"}', "line 1, column 13"],
    ['{"a": "tab\there"}', "line 1, column 11"],
    ['{"a": 01}', "line 1, column 8"],
    ['{"a": tru}', "line 1, column 7"],
    ["{'a': 1}", "line 1, column 2"],
    ['{"a": 1,\n\n  "b" 2}', "line 3, column 7"],
    ['{"a": "\\u12G4"}', "line 1, column 9"],
    ['{"a": 1}}', "line 1, column 9"],
  ];
  for (const [text, where] of cases) {
    assert.throws(
      () => parseConfig(text, "/c.json"),
      assertMalformed("/c.json", new RegExp(`: ${where}: `)),
      text,
    );
  }
});

Deno.test("parseConfig() does not quote the file's content in the message", () => {
  assert.throws(
    () => parseConfig('{"app_secret": s3cr3t-value}', "/c.json"),
    (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.ok(!error.message.includes("s3cr3t"), error.message);
      assert.ok(!error.message.includes("'s'"), error.message);
      assert.match(error.message, /line 1, column 16: expected a value$/);
      assert.equal(error.cause, undefined); // V8's SyntaxError would quote the content
      return true;
    },
  );
});

Deno.test("parseConfig() rejects an empty file and a non-object top level", () => {
  assert.throws(() => parseConfig("  \n", "/c.json"), assertMalformed("/c.json", /empty/));
  for (const text of ["[]", "null", "42", '"x"']) {
    assert.throws(
      () => parseConfig(text, "/c.json"),
      assertMalformed("/c.json", /not a JSON object/),
    );
  }
});

Deno.test("parseConfig() checks the shape of the known keys", () => {
  const cases: [string, RegExp][] = [
    ['{"apps": []}', /"apps" must be an object/],
    ['{"users": "x"}', /"users" must be an object/],
    ['{"preferences": 1}', /"preferences" must be an object/],
    ['{"apps": {"default": "x"}}', /"apps\.default" must be an object/],
    ['{"users": {"default": null}}', /"users\.default" must be an object/],
    ['{"active_profile": 3}', /"active_profile" must be a string/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(() => parseConfig(text, "/c.json"), assertMalformed("/c.json", pattern), text);
  }
});

Deno.test("parseConfig() reports a known key of another type as malformed, not a crash", () => {
  const cases: [string, RegExp][] = [
    ['{"apps": {"default": [1]}}', /"apps\.default" must be an object/],
    ['{"preferences": {"output_format": null}}', /"preferences.output_format" .* not null/],
    ['{"preferences": {"color": 1}}', /"preferences.color" must be true or false/],
    ['{"keychain_namespace": 3}', /"keychain_namespace" must be 1 to 32 lower-case letters/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(() => parseConfig(text, "/c.json"), assertMalformed("/c.json", pattern), text);
  }
});

Deno.test("parseConfig() gives back every key, in the file's order", () => {
  const text = JSON.stringify({
    keychain_namespace: "work",
    preferences: { z: 1, color: true, output_format: "json" },
    users: { default: { open_id: "ou_1", future: [1] } },
    active_profile: "default",
    apps: { default: { app_id: "cli_1" } },
    extra: null,
  });
  assert.equal(JSON.stringify(parseConfig(text, "/c.json")), text);
});

Deno.test("parseConfig() keeps unknown keys", () => {
  const config = parseConfig('{"future": {"x": [1]}, "apps": {"a": {"extra": true}}}', "/c.json");
  assert.deepEqual(config, { future: { x: [1] }, apps: { a: { extra: true } } });
});

Deno.test("updateConfig() creates the folder 0700 and the file 0600, leaving no .tmp or .lock", async () => {
  await withConfigDir(async (ctx, path) => {
    const written = await updateConfig(ctx, (config) => {
      config.preferences = { output_format: "csv" };
    });
    assert.deepEqual(written, { preferences: { output_format: "csv" } });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), written);
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(join(path, ".."))).mode! & 0o777, 0o700);
    }
    assert.deepEqual(await ctx.fs.readDir(join(path, "..")), ["config.json"]);
  });
});

Deno.test("updateConfig() keeps the file 0600 when it was wider before", async () => {
  if (Deno.build.os === "windows") return;
  await withConfigDir(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, "{}", { mode: 0o644 });
    await Deno.chmod(path, 0o644);
    await updateConfig(ctx, (config) => {
      config.active_profile = "x";
    });
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("updateConfig() preserves unknown keys at every level", async () => {
  await withConfigDir(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    const before = {
      future_key: { nested: [1, 2, { deep: true }] },
      apps: { default: { app_id: "cli_1", custom_field: "keep me" } },
      users: { default: { name: "Ada", extra: 1 } },
      preferences: { output_format: "json", theme: "dark" },
    };
    await Deno.writeTextFile(path, JSON.stringify(before));
    await updateConfig(ctx, (config) => {
      config.apps!.default.base_url = "https://open.feishu.cn";
    });
    const after = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(after, {
      ...before,
      apps: { default: { ...before.apps.default, base_url: "https://open.feishu.cn" } },
    });
  });
});

Deno.test("updateConfig() accepts a change that returns a new config", async () => {
  await withConfigDir(async (ctx, path) => {
    await updateConfig(ctx, () => ({ active_profile: "a" }));
    const result = await updateConfig(ctx, async (config) => {
      await Promise.resolve();
      return { ...config, preferences: { color: false } };
    });
    assert.deepEqual(result, { active_profile: "a", preferences: { color: false } });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), result);
  });
});

Deno.test("updateConfig() never overwrites a malformed file", async () => {
  await withConfigDir(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    const broken = '{\n  "apps": {\n    "default": {,\n  }\n}\n';
    await Deno.writeTextFile(path, broken);
    let called = false;
    await assert.rejects(
      updateConfig(ctx, (config) => {
        called = true;
        config.active_profile = "x";
      }),
      assertMalformed(path, /line 3, column 17/),
    );
    assert.equal(called, false);
    assert.equal(await Deno.readTextFile(path), broken);
    assert.deepEqual(await ctx.fs.readDir(join(path, "..")), ["config.json"]);
  });
});

Deno.test("updateConfig() writes nothing and releases the lock when the change throws", async () => {
  await withConfigDir(async (ctx, path) => {
    await updateConfig(ctx, (config) => {
      config.active_profile = "a";
    });
    const before = await Deno.readTextFile(path);
    await assert.rejects(
      updateConfig(ctx, (config) => {
        config.active_profile = "b";
        throw new ValidationError("No");
      }),
      ValidationError,
    );
    assert.equal(await Deno.readTextFile(path), before);
    assert.equal(await ctx.fs.exists(`${path}.lock`), false);
    await updateConfig(ctx, (config) => {
      config.active_profile = "c";
    });
    assert.equal((await loadConfig(ctx)).active_profile, "c");
  });
});

Deno.test("updateConfig() loses no write among concurrent callers in one process", async () => {
  await withConfigDir(async (base, path) => {
    // Real waiting, so the callers take turns on the lock.
    const ctx = {
      ...base,
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    };
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        updateConfig(ctx, (config) => {
          config[`key_${i}`] = i;
        })),
    );
    const config = JSON.parse(await Deno.readTextFile(path));
    for (let i = 0; i < 12; i++) assert.equal(config[`key_${i}`], i);
    assert.equal(await ctx.fs.exists(`${path}.lock`), false);
  });
});

Deno.test("loadConfig() reports an unreadable path as a ValidationError naming it", async () => {
  await withConfigDir(async (ctx, _path, dir) => {
    // A folder where the file should be.
    await assert.rejects(loadConfig(ctx, dir), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.message, `Cannot read the config file "${dir}": it is not a regular file`);
      return true;
    });
    // A file that cannot be read.
    if (Deno.build.os !== "windows" && Deno.uid() !== 0) {
      const locked = join(dir, "locked.json");
      await Deno.writeTextFile(locked, "{}", { mode: 0o200 });
      await assert.rejects(loadConfig(ctx, locked), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.ok(error.message.startsWith(`Cannot read the config file "${locked}": `));
        assert.ok(error.cause instanceof Error);
        return true;
      });
    }
  });
});

Deno.test("parseConfig() refuses preferences that would silently change output", () => {
  assert.throws(
    () => parseConfig('{"preferences":{"output_format":"xml"}}', "/c.json"),
    /"preferences.output_format" must be one of table, json, ndjson, csv, not "xml"/,
  );
  assert.throws(
    () => parseConfig('{"preferences":{"color":"yes"}}', "/c.json"),
    /"preferences.color" must be true or false/,
  );
  assert.deepEqual(
    parseConfig('{"preferences":{"output_format":"csv","color":false}}', "/c.json"),
    {
      preferences: { output_format: "csv", color: false },
    },
  );
});

Deno.test("updateConfig() never rewrites a config holding invalid UTF-8", async () => {
  await withConfigDir(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    const broken = new Uint8Array([
      ...new TextEncoder().encode('{\n  "apps": {"default": {"app_id": "cli_'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('"}}\n}\n'),
    ]);
    await Deno.writeFile(path, broken);
    await assert.rejects(
      updateConfig(ctx, (config) => {
        config.active_profile = "x";
      }),
      assertMalformed(path, /line 2, column 39: the bytes are not valid UTF-8/),
    );
    assert.deepEqual(await Deno.readFile(path), broken);
  });
});

Deno.test("loadConfig() reports deeply nested JSON as a malformed file, not a crash", async () => {
  await withConfigDir(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, '{"x":' + "[".repeat(200_000) + "]".repeat(200_000) + "}");
    await assert.rejects(
      loadConfig(ctx),
      assertMalformed(path, /line 1, column 69: nested deeper than 64 levels$/),
    );
  });
});

Deno.test("updateConfig() removes temporary files a killed writer left behind", async () => {
  await withConfigDir(async (ctx, path) => {
    await updateConfig(ctx, () => ({ active_profile: "a" }));
    const folder = join(path, "..");
    const leftovers = ["config.json.0123456789abcdef.tmp", "config.json.fedcba9876543210.tmp"];
    for (const name of leftovers) await Deno.writeTextFile(join(folder, name), "{");
    // Not ours: other names stay.
    await Deno.writeTextFile(join(folder, "notes.json.0123456789abcdef.tmp"), "x");
    await updateConfig(ctx, () => ({ active_profile: "b" }));
    assert.deepEqual(await ctx.fs.readDir(folder), [
      "config.json",
      "notes.json.0123456789abcdef.tmp",
    ]);
  });
});

Deno.test("updateConfig() names the file and the fix when the config path is a folder", async () => {
  await withConfigDir(async (ctx, path) => {
    await Deno.mkdir(path, { recursive: true });
    await assert.rejects(
      updateConfig(ctx, (config) => {
        config.active_profile = "x";
      }),
      (error: unknown) => {
        // Reading fails first: the folder cannot be read as a file.
        assert.ok(error instanceof ValidationError, String(error));
        assert.equal(error.code, 2);
        assert.ok(error.message.includes(`"${path}"`), error.message);
        return true;
      },
    );
  });
});

Deno.test("updateConfig() turns file system failures into a ValidationError naming the fix", async () => {
  await withConfigDir(async (base, path) => {
    const failures: [Error, RegExp][] = [
      [new Deno.errors.PermissionDenied("denied"), /permission denied in "[^"]+hark"$/],
      [new Deno.errors.NotFound("gone"), /the folder "[^"]+hark" does not exist$/],
      [new Deno.errors.IsADirectory("dir"), /"[^"]+config\.json" is a folder$/],
    ];
    for (const [failure, reason] of failures) {
      const ctx = {
        ...base,
        fs: { ...base.fs, writeFileAtomic: () => Promise.reject(failure) },
      };
      await assert.rejects(updateConfig(ctx, () => ({})), (error: unknown) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.equal(error.code, 2);
        assert.ok(error.message.startsWith(`Cannot write the config file "${path}": `));
        assert.match(error.message, reason);
        assert.match(error.recovery.suggestion, /HARK_CONFIG/);
        assert.equal(error.cause, failure);
        return true;
      });
    }
  });
});

Deno.test({
  name: "updateConfig() tightens the default config folder to 0700, not a HARK_CONFIG folder",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "hark-config-test-" });
    try {
      const xdg = join(dir, "xdg");
      const own = join(xdg, "hark");
      const shared = join(dir, "shared");
      for (const folder of [own, shared]) {
        await Deno.mkdir(folder, { recursive: true });
        await Deno.chmod(folder, 0o755);
      }
      const ctx = createTestContext({ now: Date.now(), env: { XDG_CONFIG_HOME: xdg } });
      await updateConfig(ctx, () => ({ active_profile: "a" }));
      assert.equal((await Deno.stat(own)).mode! & 0o777, 0o700);
      await updateConfig(ctx, () => ({ active_profile: "b" }), join(shared, "config.json"));
      assert.equal((await Deno.stat(shared)).mode! & 0o777, 0o755);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "updateConfig() writes through a linked config to its target, and the link stays",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withConfigDir(async (ctx, path, dir) => {
      // A dotfiles setup: config.json → ../../dotfiles/hark.json.
      const dotfiles = join(dir, "dotfiles");
      await Deno.mkdir(dotfiles, { mode: 0o700 });
      await Deno.chmod(dotfiles, 0o755);
      const target = join(dotfiles, "hark.json");
      await Deno.writeTextFile(target, '{"apps": {"default": {"app_id": "cli_1"}}}');
      await Deno.mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
      await Deno.symlink("../../dotfiles/hark.json", path);
      await updateConfig(ctx, (config) => {
        config.preferences = { color: false };
      });
      assert.ok((await Deno.lstat(path)).isSymlink, "the link stays");
      assert.equal(await Deno.readLink(path), "../../dotfiles/hark.json");
      assert.deepEqual(JSON.parse(await Deno.readTextFile(target)), {
        apps: { default: { app_id: "cli_1" } },
        preferences: { color: false },
      });
      assert.deepEqual(await loadConfig(ctx), JSON.parse(await Deno.readTextFile(target)));
      // Nothing left beside either; the link's folder (not hark's own) keeps its mode.
      assert.deepEqual((await Array.fromAsync(Deno.readDir(dotfiles))).map((e) => e.name), [
        "hark.json",
      ]);
      assert.deepEqual((await Array.fromAsync(Deno.readDir(join(path, "..")))).map((e) => e.name), [
        "config.json",
      ]);
      assert.equal((await Deno.stat(dotfiles)).mode! & 0o777, 0o755);
    });
  },
});

Deno.test({
  name: "updateConfig() refuses a linked config whose target is missing, writing nothing",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withConfigDir(async (ctx, path, dir) => {
      await Deno.mkdir(join(path, ".."), { recursive: true });
      await Deno.symlink(join(dir, "nowhere", "hark.json"), path);
      await assert.rejects(
        updateConfig(ctx, () => ({ active_profile: "x" })),
        (error: unknown) => {
          assert.ok(error instanceof ValidationError, String(error));
          assert.equal(
            error.message,
            `Cannot write the config file "${path}": it is a link to a file that does not exist`,
          );
          assert.equal(error.param, "HARK_CONFIG");
          return true;
        },
      );
      assert.ok((await Deno.lstat(path)).isSymlink);
      assert.equal(await Deno.lstat(join(dir, "nowhere")).catch(() => undefined), undefined);
    });
  },
});

/** The size limit of a config file: 1 MiB. */
const MAX_CONFIG_BYTES = 1024 * 1024;

Deno.test("loadConfig() refuses a config larger than 1 MiB without parsing it", async () => {
  await withConfigDir(async (ctx, _path, dir) => {
    const huge = join(dir, "huge.json");
    await Deno.writeTextFile(huge, `{"pad":"${"x".repeat(MAX_CONFIG_BYTES)}"}`, { mode: 0o600 });
    await assert.rejects(loadConfig(ctx, huge), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.message, `Cannot read the config file "${huge}": it is larger than 1 MiB`);
      assert.equal(error.param, "HARK_CONFIG");
      return true;
    });
    // Just under the limit is read as usual.
    const big = join(dir, "big.json");
    await Deno.writeTextFile(big, `{"pad":"${"x".repeat(MAX_CONFIG_BYTES - 20)}"}`, {
      mode: 0o600,
    });
    assert.equal(((await loadConfig(ctx, big)).pad as string).length, MAX_CONFIG_BYTES - 20);
  });
});

Deno.test({
  name: "loadConfig() refuses a device or a FIFO without reading from it",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withConfigDir(async (ctx, _path, dir) => {
      const fifo = join(dir, "fifo.json");
      assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
      for (const path of ["/dev/zero", fifo]) {
        await assert.rejects(
          loadConfig(ctx, path),
          (error: unknown) =>
            error instanceof ValidationError &&
            error.message === `Cannot read the config file "${path}": it is not a regular file`,
          path,
        );
      }
    });
  },
});

Deno.test({
  name: "loadConfig() refuses a config file other users can write to, naming the fix",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withConfigDir(async (ctx, _path, dir) => {
      const open = join(dir, "open.json");
      await Deno.writeTextFile(open, "{}");
      await Deno.chmod(open, 0o666);
      await assert.rejects(loadConfig(ctx, open), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.match(error.message, /other users can write to it \(mode 0666\)$/);
        assert.equal(error.recovery.command, `chmod 600 ${open}`);
        return true;
      });
      // Writing goes through loading: a change is refused as well, and the file is untouched.
      await assert.rejects(updateConfig(ctx, (c) => void (c.x = 1), open), ValidationError);
      assert.equal(await Deno.readTextFile(open), "{}");
    });
  },
});
