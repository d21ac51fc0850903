import assert from "node:assert/strict";
import { join } from "node:path";
import type { FileSystem } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { realFileSystem } from "../runtime/real_file_system.ts";
import { checkTrustedFile } from "./file_trust.ts";

const KIND = { what: "the config file", param: "HARK_CONFIG", chmod: "600" };
const posix = Deno.build.os !== "windows";

/** The real disk, seen by a process running as `uid`, whose files belong to `owner`. */
function fsAs(uid: number, owner?: number): FileSystem {
  return {
    ...realFileSystem,
    userId: () => uid,
    async stat(path) {
      const info = await realFileSystem.stat(path);
      return info && owner !== undefined ? { ...info, uid: owner } : info;
    },
  };
}

async function withFile(
  fn: (dir: string, file: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-trust-" });
  try {
    const file = join(dir, "config.json");
    await Deno.writeTextFile(file, "{}");
    await Deno.chmod(file, 0o600);
    await fn(dir, file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function check(fs: FileSystem, path: string): Promise<void> {
  const info = await fs.stat(path);
  assert.ok(info);
  await checkTrustedFile({ fs, os: "linux" }, path, info, KIND);
}

Deno.test({
  name: "checkTrustedFile() accepts the user's own private file, and root's",
  ignore: !posix,
  async fn() {
    await withFile(async (_dir, file) => {
      const me = realFileSystem.userId()!;
      await check(fsAs(me), file);
      await check(fsAs(1234, 0), file); // root's (a config an admin installed, /usr/bin/vault)
      await Deno.chmod(file, 0o644);
      await check(fsAs(me), file);
    });
  },
});

Deno.test({
  name: "checkTrustedFile() refuses a file that group or others can write, naming chmod",
  ignore: !posix,
  async fn() {
    await withFile(async (_dir, file) => {
      for (const mode of [0o666, 0o620, 0o602]) {
        await Deno.chmod(file, mode);
        await assert.rejects(check(fsAs(realFileSystem.userId()!), file), (error: unknown) => {
          assert.ok(error instanceof ValidationError);
          assert.equal(
            error.message,
            `Refusing the config file "${file}": other users can write to it (mode 0${
              mode.toString(8)
            })`,
          );
          assert.equal(error.param, "HARK_CONFIG");
          assert.equal(error.recovery.command, `chmod 600 ${file}`);
          return true;
        });
      }
    });
  },
});

Deno.test({
  name: "checkTrustedFile() refuses a file that belongs to another user",
  ignore: !posix,
  async fn() {
    await withFile(async (_dir, file) => {
      await assert.rejects(check(fsAs(1000, 1001), file), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(
          error.message,
          `Refusing the config file "${file}": it belongs to another user (uid 1001), who could ` +
            "change what it says at any time",
        );
        assert.equal(error.recovery.command, `sudo chown "$(id -u)" ${file}`);
        return true;
      });
    });
  },
});

Deno.test({
  name: "checkTrustedFile() refuses a folder others can write unless it is sticky",
  ignore: !posix,
  async fn() {
    await withFile(async (dir, file) => {
      const me = fsAs(realFileSystem.userId()!);
      await Deno.chmod(dir, 0o777);
      await assert.rejects(
        check(me, file),
        new RegExp(
          `its folder "${RegExp.escape(dir)}" lets other users replace it \\(mode 0777\\)`,
        ),
      );
      await Deno.chmod(dir, 0o770);
      await assert.rejects(check(me, file), /lets other users replace it \(mode 0770\)/);
      await Deno.chmod(dir, 0o1777);
      await check(me, file);
      await Deno.chmod(dir, 0o700);
    });
  },
});

Deno.test({
  name: "checkTrustedFile() checks the folder of a link and of the file it leads to",
  ignore: !posix,
  async fn() {
    await withFile(async (dir, file) => {
      const me = fsAs(realFileSystem.userId()!);
      const open = join(dir, "open");
      await Deno.mkdir(open);
      await Deno.chmod(open, 0o777);
      const link = join(open, "link.json");
      await Deno.symlink(file, link);
      await assert.rejects(check(me, link), /its folder ".*\/open" lets other users replace it/);
      const target = join(open, "target.json");
      await Deno.writeTextFile(target, "{}");
      await Deno.chmod(target, 0o600);
      const safeLink = join(dir, "safe-link.json");
      await Deno.symlink(target, safeLink);
      await assert.rejects(
        check(me, safeLink),
        /its folder ".*\/open" lets other users replace it/,
      );
      await Deno.chmod(open, 0o700);
    });
  },
});

Deno.test("checkTrustedFile() has nothing to check on Windows", async () => {
  const fs = fsAs(1);
  await checkTrustedFile({ fs, os: "windows" }, "C:\\x.json", {
    isFile: true,
    isDirectory: false,
    size: 2,
    mode: 0o666,
    uid: 2,
  }, KIND);
});
