import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  FILE_KEYCHAIN_ITERATIONS,
  FileKeychain,
  fileKeychainDir,
  fileNameOfPath,
  pathOfFileName,
} from "./file_keychain.ts";
import { KeychainError } from "./keychain.ts";

const VALUES: Record<string, string> = {
  "hark/default/app_secret": "plain-ascii-secret",
  "hark/default/user_token": "ünïcødé 密钥 🔑 \"double\" 'single' \\ end",
  "hark/work/app_secret": "line one\nline two\r\n",
  "hark/work/user_token": "0123456789abcdef".repeat(256),
  "hark/empty/app_secret": "",
  "hark/solo": "a path without a profile",
};

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-file-keychain-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function context(dir: string, password: string | null = "correct horse") {
  const env: Record<string, string> = { HARK_DATA_DIR: dir };
  if (password !== null) env.HARK_KEYCHAIN_PASSWORD = password;
  return createTestContext({ env });
}

Deno.test("FileKeychain round-trips secrets byte for byte and lists them", async () => {
  await withDir(async (dir) => {
    const keychain = new FileKeychain(context(dir), { iterations: 1_000 });
    assert.deepEqual(await keychain.list(), []);
    assert.equal(await keychain.get("hark/default/app_secret"), undefined);
    for (const [path, secret] of Object.entries(VALUES)) await keychain.set(path, secret);
    // A fresh object (a new process) reads them back.
    const again = new FileKeychain(context(dir));
    for (const [path, secret] of Object.entries(VALUES)) {
      assert.equal(await again.get(path), secret, path);
    }
    assert.deepEqual(await again.list(), Object.keys(VALUES).sort());
    await keychain.set("hark/default/app_secret", "replaced");
    assert.equal(await again.get("hark/default/app_secret"), "replaced");
  });
});

Deno.test("FileKeychain writes 0600 files in a 0700 folder with no plaintext on disk", async () => {
  await withDir(async (dir) => {
    const keychain = new FileKeychain(context(dir));
    for (const [path, secret] of Object.entries(VALUES)) await keychain.set(path, secret);
    const folder = join(dir, "keychain");
    assert.equal(keychain.dir, folder);
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(folder)).mode! & 0o777, 0o700);
    }
    const names = (await Array.fromAsync(Deno.readDir(folder))).map((e) => e.name).sort();
    assert.deepEqual(names, Object.keys(VALUES).map(fileNameOfPath).sort());
    const everything: Uint8Array[] = [];
    for (const name of names) {
      const file = join(folder, name);
      if (Deno.build.os !== "windows") {
        assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600, name);
      }
      const bytes = await Deno.readFile(file);
      everything.push(bytes);
      const record = JSON.parse(new TextDecoder().decode(bytes));
      assert.deepEqual(Object.keys(record).sort(), [
        "ciphertext",
        "iterations",
        "iv",
        "kdf",
        "salt",
        "v",
      ]);
      assert.equal(record.v, 1);
      assert.equal(record.kdf, "PBKDF2-SHA256");
      assert.equal(record.iterations, FILE_KEYCHAIN_ITERATIONS);
    }
    const disk = new TextDecoder().decode(new Uint8Array(everything.flatMap((b) => [...b])));
    for (const secret of Object.values(VALUES).filter((s) => s.length >= 4)) {
      const bytes = new TextEncoder().encode(secret);
      assert.ok(!disk.includes(secret), `plaintext on disk: ${secret.slice(0, 20)}`);
      assert.ok(!disk.includes(bytes.toBase64()), "base64 plaintext on disk");
    }
    assert.ok(!disk.includes("correct horse"), "the password is not on disk");
  });
});

Deno.test("FileKeychain fails clearly on a wrong password, never returning garbage", async () => {
  await withDir(async (dir) => {
    await new FileKeychain(context(dir), { iterations: 1_000 }).set("hark/default/app_secret", "v");
    const wrong = new FileKeychain(context(dir, "battery staple"));
    await assert.rejects(() => wrong.get("hark/default/app_secret"), (error) => {
      assert.ok(error instanceof KeychainError, String(error));
      assert.equal(error.backend, "file");
      assert.equal(
        error.message,
        'Cannot decrypt "hark/default/app_secret" from the file keychain: ' +
          "wrong HARK_KEYCHAIN_PASSWORD?",
      );
      assert.ok(error.cause !== undefined);
      return true;
    });
  });
});

Deno.test("FileKeychain asks for HARK_KEYCHAIN_PASSWORD when it is not set", async () => {
  await withDir(async (dir) => {
    const keychain = new FileKeychain(context(dir, null));
    await assert.rejects(() => keychain.set("hark/x", "v"), (error) => {
      assert.ok(error instanceof KeychainError);
      assert.match(error.message, /HARK_KEYCHAIN_PASSWORD is not set/);
      assert.match(error.recovery.suggestion, /Set HARK_KEYCHAIN_PASSWORD/);
      return true;
    });
    assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), [], "nothing written");
    await Deno.mkdir(join(dir, "keychain"));
    await Deno.writeTextFile(
      join(dir, "keychain", fileNameOfPath("hark/x")),
      '{"v":1,"kdf":"PBKDF2-SHA256","iterations":1,"salt":"AA==","iv":"AA==","ciphertext":"AA=="}',
    );
    await assert.rejects(() => keychain.get("hark/x"), /HARK_KEYCHAIN_PASSWORD is not set/);
  });
});

Deno.test("FileKeychain refuses a file asking for too many or impossible iterations, deriving nothing", async () => {
  await withDir(async (dir) => {
    const keychain = new FileKeychain(context(dir), { iterations: 1_000 });
    await keychain.set("hark/default/user_token", "t");
    const file = join(dir, "keychain", fileNameOfPath("hark/default/user_token"));
    const good = JSON.parse(await Deno.readTextFile(file));
    for (const iterations of [40_000_000, 2 ** 32, 10_000_001, 0, -5, 1.5]) {
      await Deno.writeTextFile(file, JSON.stringify({ ...good, iterations }));
      const started = performance.now();
      await assert.rejects(() => keychain.get("hark/default/user_token"), (error: unknown) => {
        assert.ok(error instanceof KeychainError, String(error));
        assert.equal(
          error.message,
          `Cannot read "hark/default/user_token" from the file keychain: "${file}" asks for ` +
            `${iterations} PBKDF2 iterations, expected a whole number from 1 to 10000000`,
        );
        return true;
      });
      assert.ok(performance.now() - started < 1_000, `${iterations}: derived a key`);
    }
    await Deno.writeTextFile(file, JSON.stringify(good));
    assert.equal(await keychain.get("hark/default/user_token"), "t");
  });
});

Deno.test("FileKeychain stores nothing with a password shorter than 8 characters", async () => {
  await withDir(async (dir) => {
    const keychain = new FileKeychain(context(dir, "1234567"), { iterations: 1_000 });
    await assert.rejects(() => keychain.set("hark/default/app_secret", "s"), (error: unknown) => {
      assert.ok(error instanceof KeychainError);
      assert.equal(
        error.message,
        'Cannot store "hark/default/app_secret" in the file keychain: HARK_KEYCHAIN_PASSWORD is ' +
          "shorter than 8 characters",
      );
      assert.match(error.recovery.suggestion, /at least 8 characters/);
      return true;
    });
    assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), [], "nothing written");
    await new FileKeychain(context(dir, "12345678"), { iterations: 1_000 }).set("hark/x", "v");
  });
});

Deno.test("FileKeychain derives the key of new files with OWASP's 600,000 PBKDF2 iterations", () => {
  assert.equal(FILE_KEYCHAIN_ITERATIONS, 600_000);
});

Deno.test("FileKeychain binds each file to its path: a moved file does not decrypt", async () => {
  await withDir(async (dir) => {
    const keychain = new FileKeychain(context(dir), { iterations: 1_000 });
    await keychain.set("hark/default/app_secret", "v");
    const folder = join(dir, "keychain");
    await Deno.rename(
      join(folder, fileNameOfPath("hark/default/app_secret")),
      join(folder, fileNameOfPath("hark/work/app_secret")),
    );
    await assert.rejects(() => keychain.get("hark/work/app_secret"), /Cannot decrypt/);
  });
});

Deno.test("FileKeychain reports a damaged file and deletes entries", async () => {
  await withDir(async (dir) => {
    const keychain = new FileKeychain(context(dir), { iterations: 1_000 });
    await keychain.set("hark/default/app_secret", "v");
    await keychain.set("hark/default/user_token", "t");
    assert.equal(await keychain.delete("hark/default/app_secret"), true);
    assert.equal(await keychain.delete("hark/default/app_secret"), false);
    assert.equal(await keychain.get("hark/default/app_secret"), undefined);
    assert.deepEqual(await keychain.list(), ["hark/default/user_token"]);
    const file = join(dir, "keychain", fileNameOfPath("hark/default/user_token"));
    for (
      const content of [
        "{not json",
        '{"v":2}',
        '{"v":1,"kdf":"PBKDF2-SHA256",' +
        '"iterations":1000,"salt":"!!","iv":"AA==","ciphertext":"AA=="}',
      ]
    ) {
      await Deno.writeTextFile(file, content);
      await assert.rejects(
        () => keychain.get("hark/default/user_token"),
        /is not a hark keychain file/,
      );
    }
    // Stray files (a temp file, another program's) are not entries.
    await Deno.writeTextFile(join(dir, "keychain", "notes.txt"), "x");
    await Deno.writeTextFile(join(dir, "keychain", `${fileNameOfPath("hark/a")}.tmp`), "x");
    assert.deepEqual(await keychain.list(), ["hark/default/user_token"]);
  });
});

Deno.test("FileKeychain reports a record with a field missing or of another type as damaged", async () => {
  await withDir(async (dir) => {
    const keychain = new FileKeychain(context(dir), { iterations: 1_000 });
    await keychain.set("hark/default/user_token", "t");
    const file = join(dir, "keychain", fileNameOfPath("hark/default/user_token"));
    const good = JSON.parse(await Deno.readTextFile(file));
    const damaged = [
      { ...good, iterations: undefined },
      { ...good, iterations: "1000" },
      { ...good, salt: undefined },
      { ...good, iv: 7 },
      { ...good, ciphertext: null },
      { ...good, kdf: undefined },
      { ...good, v: "1" },
      [good],
      null,
    ];
    for (const record of damaged) {
      await Deno.writeTextFile(file, JSON.stringify(record));
      await assert.rejects(
        () => keychain.get("hark/default/user_token"),
        (error: unknown) => {
          assert.ok(error instanceof KeychainError, String(error));
          assert.equal(error.type, "keychain");
          assert.equal(error.code, 1);
          assert.match(error.message, /is not a hark keychain file/);
          return true;
        },
        JSON.stringify(record),
      );
    }
    await Deno.writeTextFile(file, JSON.stringify(good));
    assert.equal(await keychain.get("hark/default/user_token"), "t");
  });
});

Deno.test("fileKeychainDir() follows HARK_DATA_DIR, XDG_DATA_HOME, then the OS default", () => {
  const at = (env: Record<string, string>, os: "linux" | "darwin" | "windows") =>
    fileKeychainDir(createTestContext({ env, os, homeDir: "/home/u" }));
  assert.equal(at({ HARK_DATA_DIR: "/d", XDG_DATA_HOME: "/x" }, "linux"), join("/d", "keychain"));
  assert.equal(at({ XDG_DATA_HOME: "/x" }, "linux"), join("/x", "hark", "keychain"));
  assert.equal(at({}, "linux"), join("/home/u", ".local", "share", "hark", "keychain"));
  assert.equal(
    at({}, "darwin"),
    join("/home/u", "Library", "Application Support", "hark", "keychain"),
  );
  assert.equal(at({ LOCALAPPDATA: "C:\\l" }, "windows"), "C:\\l\\hark\\keychain");
  assert.throws(
    () => fileKeychainDir(createTestContext({})),
    /Cannot locate the file keychain: no home folder and no HARK_DATA_DIR/,
  );
});

Deno.test("fileNameOfPath() and pathOfFileName() are inverse and reject strays", () => {
  assert.equal(fileNameOfPath("hark/default/app_secret"), "hark%2Fdefault%2Fapp_secret.json");
  assert.equal(pathOfFileName("hark%2Fdefault%2Fapp_secret.json"), "hark/default/app_secret");
  assert.equal(pathOfFileName("hark%2Fdefault%2Fapp_secret.json.tmp"), undefined);
  assert.equal(pathOfFileName("other.json"), undefined);
});

Deno.test({
  name: "FileKeychain never writes through a link planted at a temp name and tightens its folder",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withDir(async (dir) => {
      const keychain = new FileKeychain(context(dir), { iterations: 1_000 });
      const folder = join(dir, "keychain");
      await Deno.mkdir(folder, { mode: 0o700 });
      await Deno.chmod(folder, 0o755);
      const victim = join(dir, "victim");
      await Deno.writeTextFile(victim, "precious");
      const entry = join(folder, fileNameOfPath("hark/default/app_secret"));
      await Deno.symlink(victim, `${entry}.tmp`);
      await keychain.set("hark/default/app_secret", "s3cret");
      assert.equal(await Deno.readTextFile(victim), "precious");
      assert.equal(await keychain.get("hark/default/app_secret"), "s3cret");
      assert.equal((await Deno.stat(folder)).mode! & 0o777, 0o700);
      assert.ok((await Deno.lstat(`${entry}.tmp`)).isSymlink);
    });
  },
});

/** {@link context} with real random bytes: each keychain object draws salts of its own. */
function random(dir: string, password?: string) {
  return {
    ...context(dir, password),
    randomBytes: (length: number) => crypto.getRandomValues(new Uint8Array(length)),
  };
}

Deno.test("FileKeychain writes with the salt of a file it opened: one key per command", async () => {
  await withDir(async (dir) => {
    await new FileKeychain(random(dir), { iterations: 1_000 }).set("hark/default/user_token", "t");
    const saltOf = async (path: string) =>
      JSON.parse(await Deno.readTextFile(join(dir, "keychain", fileNameOfPath(path)))).salt;
    const first = await saltOf("hark/default/user_token");
    // Keys are cached per salt: writing with the salt just opened derives no second key.
    const keychain = new FileKeychain(random(dir), { iterations: 1_000 });
    assert.equal(await keychain.get("hark/default/user_token"), "t");
    await keychain.set("hark/default/user_token", "t2");
    await keychain.set("hark/default/tenant_token", "t3");
    assert.equal(await saltOf("hark/default/user_token"), first);
    assert.equal(await saltOf("hark/default/tenant_token"), first);
    // A file of another count, or one that did not open, lends nothing.
    const other = new FileKeychain(random(dir), { iterations: 2_000 });
    assert.equal(await other.get("hark/default/user_token"), "t2");
    await other.set("hark/other", "x");
    assert.notEqual(await saltOf("hark/other"), first);
    const wrong = new FileKeychain(random(dir, "wrong password"), { iterations: 1_000 });
    await assert.rejects(() => wrong.get("hark/default/user_token"), KeychainError);
    await wrong.set("hark/wrong", "x");
    assert.notEqual(await saltOf("hark/wrong"), first);
  });
});

Deno.test("FileKeychain.prepare() reads ahead with HARK_KEYCHAIN_PASSWORD: the first get takes the read, a set drops it", async () => {
  await withDir(async (dir) => {
    const path = "hark/default/user_token";
    await new FileKeychain(context(dir), { iterations: 1_000 }).set(path, "first");
    const counted = (ctx: ReturnType<typeof context>) => {
      const reads: string[] = [];
      const read = ctx.fs.readTextFile.bind(ctx.fs);
      ctx.fs.readTextFile = (file) => {
        reads.push(file);
        return read(file);
      };
      return reads;
    };
    const ctx = context(dir);
    const reads = counted(ctx);
    const keychain = new FileKeychain(ctx);
    keychain.prepare([path]);
    assert.equal(reads.length, 1, "read when prepared, not when asked");
    assert.equal(await keychain.get(path), "first");
    assert.equal(reads.length, 1);
    // Only the first get takes it; a set drops one made before it.
    assert.equal(await keychain.get(path), "first");
    assert.equal(reads.length, 2);
    keychain.prepare([path]);
    await keychain.set(path, "second");
    assert.equal(await keychain.get(path), "second");
    // A password a person types is never asked for ahead.
    const asking = context(dir, null);
    const asked: boolean[] = [];
    const quiet = new FileKeychain(asking, {
      askPassword: (creating) => {
        asked.push(creating);
        return Promise.resolve("correct horse");
      },
    });
    const askingReads = counted(asking);
    quiet.prepare([path]);
    assert.deepEqual([askingReads.length, asked.length], [0, 0]);
    assert.equal(await quiet.get(path), "second");
  });
});
