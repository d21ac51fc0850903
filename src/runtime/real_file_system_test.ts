import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { realFileSystem as fs } from "./real_file_system.ts";

const posix = Deno.build.os !== "windows";
const isRoot = posix && Deno.uid() === 0;

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-fs-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Makes `crypto.getRandomValues` fill its next calls with `sequence`, one list per call. */
async function withRandom(sequence: number[][], fn: () => Promise<void>): Promise<void> {
  const original = crypto.getRandomValues;
  const queue = [...sequence];
  crypto.getRandomValues = (<T extends ArrayBufferView>(array: T): T => {
    const next = queue.shift();
    if (next && array instanceof Uint8Array) array.set(next.slice(0, array.length));
    else original.call(crypto, array);
    return array;
  }) as typeof crypto.getRandomValues;
  try {
    await fn();
  } finally {
    crypto.getRandomValues = original;
  }
}

const hex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, "0")).join("");

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("writeFileAtomic() writes mode 0600 through a fresh temp file it leaves no trace of", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "config.json");
    await fs.writeFileAtomic(path, '{"a":1}\n', 0o600);
    await fs.writeFileAtomic(path, new TextEncoder().encode('{"a":2}\n'), 0o600);
    assert.equal(await Deno.readTextFile(path), '{"a":2}\n');
    assert.deepEqual(await names(dir), ["config.json"]);
    if (posix) assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test({
  name: "writeFileAtomic() never follows a link, even one at the very temp name it picks",
  ignore: !posix,
  async fn() {
    await withDir(async (dir) => {
      const victim = join(dir, "victim");
      await Deno.writeTextFile(victim, "precious", { mode: 0o644 });
      await Deno.chmod(victim, 0o644);
      const path = join(dir, "config.json");
      const first = [1, 2, 3, 4, 5, 6, 7, 8];
      const planted = [
        `${path}.tmp`, // the old fixed name
        `${path}.${hex(first)}.tmp`, // the name it is about to pick
        `${path}.ffffffffffffffff.tmp`,
      ];
      for (const link of planted) await Deno.symlink(victim, link);
      await Deno.symlink(join(dir, "absent"), `${path}.0000000000000000.tmp`); // dangling
      await withRandom([first, [0, 0, 0, 0, 0, 0, 0, 0], [9, 9, 9, 9, 9, 9, 9, 9]], async () => {
        await fs.writeFileAtomic(path, "new content", 0o600);
      });
      assert.equal(await Deno.readTextFile(victim), "precious");
      assert.equal((await Deno.stat(victim)).mode! & 0o777, 0o644);
      assert.equal(await fs.exists(join(dir, "absent")), false);
      assert.equal(await Deno.readTextFile(path), "new content");
      assert.ok((await Deno.lstat(path)).isFile);
      for (const link of planted) assert.ok((await Deno.lstat(link)).isSymlink, link);
    });
  },
});

Deno.test("writeFileAtomic() is not stopped by a folder or file at a temp name", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "config.json");
    await Deno.mkdir(`${path}.tmp`);
    await Deno.writeTextFile(`${path}.tmp/inside`, "x");
    await fs.writeFileAtomic(path, "ok", 0o600);
    assert.equal(await Deno.readTextFile(path), "ok");
    assert.equal(await Deno.readTextFile(`${path}.tmp/inside`), "x");
  });
});

Deno.test("writeFileAtomic() gives up with AlreadyExists when every temp name is taken", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "config.json");
    const taken = [7, 7, 7, 7, 7, 7, 7, 7];
    await Deno.writeTextFile(`${path}.${hex(taken)}.tmp`, "someone else's");
    await withRandom(Array(8).fill(taken), async () => {
      await assert.rejects(fs.writeFileAtomic(path, "x", 0o600), Deno.errors.AlreadyExists);
    });
    assert.equal(await fs.exists(path), false);
    assert.equal(await Deno.readTextFile(`${path}.${hex(taken)}.tmp`), "someone else's");
  });
});

Deno.test("writeFileAtomic() rejects NotFound for a missing folder and leaves nothing", async () => {
  await withDir(async (dir) => {
    await assert.rejects(
      fs.writeFileAtomic(join(dir, "missing", "config.json"), "x", 0o600),
      Deno.errors.NotFound,
    );
    assert.deepEqual(await names(dir), []);
  });
});

Deno.test("writeFileAtomic() removes its temp file when the rename fails", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "config.json");
    await Deno.mkdir(path); // a folder where the file goes: the rename fails
    await Deno.writeTextFile(join(path, "keep"), "x");
    await assert.rejects(fs.writeFileAtomic(path, "x", 0o600));
    assert.deepEqual(await names(dir), ["config.json"]);
  });
});

Deno.test({
  name: "writeFileAtomic() refuses a folder everyone may write to, naming it and the fix",
  ignore: !posix,
  async fn() {
    await withDir(async (dir) => {
      const open = join(dir, "open");
      await Deno.mkdir(open);
      await Deno.chmod(open, 0o777);
      await assert.rejects(fs.writeFileAtomic(join(open, "c.json"), "x", 0o600), (error) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.equal(error.code, 2);
        assert.equal(
          error.message,
          `Cannot write in the folder "${open}": every user can write to it`,
        );
        assert.match(error.recovery.suggestion, /chmod 700 ".+open"/);
        return true;
      });
      assert.deepEqual(await names(open), []);
      await assert.rejects(fs.createExclusive(join(open, "c.json.lock"), "{}"), ValidationError);
      assert.deepEqual(await names(open), []);
    });
  },
});

Deno.test({
  name: "writeFileAtomic() refuses a group-writable folder of another user, allows its own",
  ignore: !isRoot, // only root can give a folder to another user
  async fn() {
    await withDir(async (dir) => {
      const theirs = join(dir, "theirs");
      const mine = join(dir, "mine");
      for (const folder of [theirs, mine]) {
        await Deno.mkdir(folder);
        await Deno.chmod(folder, 0o775);
      }
      await Deno.chown(theirs, 65534, 65534);
      await assert.rejects(fs.writeFileAtomic(join(theirs, "c.json"), "x", 0o600), (error) => {
        assert.ok(error instanceof ValidationError);
        assert.match(error.message, /other users can write to it and it belongs to someone else/);
        assert.match(error.recovery.suggestion, /chmod go-w/);
        return true;
      });
      assert.deepEqual(await names(theirs), []);
      await fs.writeFileAtomic(join(mine, "c.json"), "x", 0o600);
      assert.equal((await Deno.stat(mine)).mode! & 0o777, 0o775);
    });
  },
});

Deno.test({
  name: "writeFileAtomic() tightens a private folder of the user's to 0700",
  ignore: !posix,
  async fn() {
    await withDir(async (dir) => {
      for (const loose of [0o755, 0o777, 0o750]) {
        const folder = join(dir, `f${loose.toString(8)}`);
        await Deno.mkdir(folder);
        await Deno.chmod(folder, loose);
        await fs.writeFileAtomic(join(folder, "entry.json"), "x", 0o600, { privateFolder: true });
        assert.equal((await Deno.stat(folder)).mode! & 0o777, 0o700);
      }
    });
  },
});

Deno.test({
  name: "writeFileAtomic() gives the file its mode even under a umask that strips owner bits",
  ignore: !posix,
  async fn() {
    await withDir(async (dir) => {
      const path = join(dir, "c.json");
      const previous = Deno.umask(0o377);
      try {
        await fs.writeFileAtomic(path, "x", 0o600);
      } finally {
        Deno.umask(previous);
      }
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    });
  },
});

Deno.test("createExclusive() never follows a planted link", async () => {
  await withDir(async (dir) => {
    const victim = join(dir, "victim");
    await Deno.writeTextFile(victim, "precious");
    const lock = join(dir, "config.json.lock");
    if (posix) {
      await Deno.symlink(victim, lock);
      await assert.rejects(fs.createExclusive(lock, "{}"), Deno.errors.AlreadyExists);
      assert.equal(await Deno.readTextFile(victim), "precious");
      await Deno.remove(lock);
    }
    await fs.createExclusive(lock, '{"pid":1}');
    assert.equal(await Deno.readTextFile(lock), '{"pid":1}');
    if (posix) assert.equal((await Deno.stat(lock)).mode! & 0o777, 0o600);
  });
});

function streamOf(chunks: Uint8Array[], failAfter?: Error): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else if (failAfter) controller.error(failAfter);
      else controller.close();
    },
  });
}

Deno.test("stat() and openRead() describe and stream a file; a folder and a gap are told apart", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "data.bin");
    await Deno.writeFile(path, new Uint8Array(70_000).fill(7));
    await Deno.chmod(path, 0o640);
    const info = await fs.stat(path);
    assert.deepEqual(
      { ...info, uid: undefined },
      { isFile: true, isDirectory: false, size: 70_000, mode: 0o640, uid: undefined },
    );
    assert.equal(info?.uid, fs.userId(), "the file is the user's own");
    assert.equal((await fs.stat(dir))?.isDirectory, true);
    assert.equal(await fs.stat(join(dir, "absent")), undefined);
    const { size, stream } = await fs.openRead(path);
    assert.equal(size, 70_000);
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    assert.equal(bytes.length, 70_000);
    assert.ok(bytes.every((b) => b === 7));
    await assert.rejects(fs.openRead(dir), Deno.errors.IsADirectory);
    await assert.rejects(fs.openRead(join(dir, "absent")), Deno.errors.NotFound);
  });
});

Deno.test("writeStreamAtomic() writes chunk by chunk and never replaces a file unless asked", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "out.bin");
    const chunk = new Uint8Array(1000).fill(1);
    assert.equal(await fs.writeStreamAtomic(path, streamOf([chunk, chunk]), 0o600), 2000);
    assert.equal((await Deno.stat(path)).size, 2000);
    if (posix) assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    await assert.rejects(
      fs.writeStreamAtomic(path, streamOf([new Uint8Array(5)]), 0o600),
      Deno.errors.AlreadyExists,
    );
    assert.equal((await Deno.stat(path)).size, 2000, "the existing file is untouched");
    await fs.writeStreamAtomic(path, streamOf([new Uint8Array(5)]), 0o600, { overwrite: true });
    assert.equal((await Deno.stat(path)).size, 5);
    assert.deepEqual(await names(dir), ["out.bin"]);
  });
});

Deno.test("writeStreamAtomic() leaves no partial file when the stream fails midway", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "out.bin");
    const broken = new Error("connection lost");
    await assert.rejects(
      fs.writeStreamAtomic(path, streamOf([new Uint8Array(4096)], broken), 0o600),
      (error) => error === broken,
    );
    assert.deepEqual(await names(dir), []);
    await Deno.writeTextFile(path, "keep");
    await assert.rejects(
      fs.writeStreamAtomic(path, streamOf([new Uint8Array(10)], broken), 0o600, {
        overwrite: true,
      }),
    );
    assert.equal(await Deno.readTextFile(path), "keep");
    assert.deepEqual(await names(dir), ["out.bin"]);
  });
});

Deno.test({
  name: "writeStreamAtomic() accepts a sticky shared folder like /tmp, refuses a plain one",
  ignore: !posix,
  async fn() {
    await withDir(async (dir) => {
      const sticky = join(dir, "sticky");
      const open = join(dir, "open");
      await Deno.mkdir(sticky);
      await Deno.chmod(sticky, 0o1777);
      await Deno.mkdir(open);
      await Deno.chmod(open, 0o777);
      await fs.writeStreamAtomic(join(sticky, "a"), streamOf([new Uint8Array(3)]), 0o600);
      assert.deepEqual(await names(sticky), ["a"]);
      await assert.rejects(
        fs.writeStreamAtomic(join(open, "a"), streamOf([new Uint8Array(3)]), 0o600),
        ValidationError,
      );
      assert.deepEqual(await names(open), []);
    });
  },
});

Deno.test("writeStreamAtomic() writes small streams whole too, and a check can stop it", async () => {
  await withDir(async (dir) => {
    for (const size of [1, 10, 1000, 70_000]) {
      const path = join(dir, `s${size}`);
      const written = await fs.writeStreamAtomic(
        path,
        new Response(new Uint8Array(size).fill(3)).body!,
        0o600,
      );
      assert.equal(written, size);
      assert.equal((await Deno.stat(path)).size, size);
    }
    const stopped = new Error("wrong length");
    await assert.rejects(
      fs.writeStreamAtomic(join(dir, "checked"), streamOf([new Uint8Array(5)]), 0o600, {
        check: (bytes) => {
          assert.equal(bytes, 5);
          throw stopped;
        },
      }),
      (error) => error === stopped,
    );
    assert.deepEqual(await names(dir), ["s1", "s10", "s1000", "s70000"]);
  });
});
