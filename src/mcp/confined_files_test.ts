import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { realFileSystem } from "../runtime/real_file_system.ts";
import { confinedFiles } from "./confined_files.ts";

/** A folder for tools, a folder outside it with a secret, links from one to the other. */
async function withFolders(
  fn: (dirs: { folder: string; outside: string }) => Promise<void>,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const folder = join(root, "files");
  const outside = join(root, "outside");
  try {
    await Deno.mkdir(join(folder, "sub"), { recursive: true });
    await Deno.mkdir(join(folder, ".git"));
    await Deno.mkdir(outside);
    await Deno.writeTextFile(join(folder, "a.txt"), "inside");
    await Deno.writeTextFile(join(folder, ".git", "config"), "[core]");
    await Deno.writeTextFile(join(outside, "secret"), "SECRET");
    await Deno.symlink(join(outside, "secret"), join(folder, "secret-link"));
    await Deno.symlink(join(folder, ".git", "config"), join(folder, "config-link"));
    await Deno.symlink(join(folder, "a.txt"), join(folder, "a-link"));
    await Deno.symlink(outside, join(folder, "out"));
    await fn({ folder, outside });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function bytes(text: string): ReadableStream<Uint8Array> {
  return new Blob([text]).stream();
}

async function refused(promise: Promise<unknown>, how: RegExp): Promise<void> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof ValidationError, `expected a refusal, got ${error}`);
  assert.match(error.message, how);
}

Deno.test("confinedFiles() reads a file inside, through a link that stays inside too", async () => {
  await withFolders(async ({ folder }) => {
    const fs = confinedFiles(realFileSystem, { real: folder }, "linux");
    for (const name of ["a.txt", "a-link"]) {
      const { size, stream } = await fs.openRead(join(folder, name));
      assert.equal(size, 6);
      assert.equal(await new Response(stream).text(), "inside");
    }
    assert.equal(fs.readTextFile, realFileSystem.readTextFile, "hark's own files pass as they are");
  });
});

Deno.test("confinedFiles() refuses to read what the opened file turns out to be", async () => {
  await withFolders(async ({ folder }) => {
    const fs = confinedFiles(realFileSystem, { real: folder }, "linux");
    await refused(
      fs.openRead(join(folder, "secret-link")),
      /^Cannot use ".*secret-link": it leads through a link outside ".*files"/,
    );
    await refused(fs.openRead(join(folder, "out", "secret")), /leads through a link outside/);
    await refused(fs.openRead(join(folder, "config-link")), /it names the hidden "\.git"/);
    const off = confinedFiles(realFileSystem, undefined, "linux");
    await refused(off.openRead(join(folder, "a.txt")), /local files are off for agents/);
  });
});

Deno.test("confinedFiles() writes into the folder's real path, and nowhere through a link", async () => {
  await withFolders(async ({ folder, outside }) => {
    const fs = confinedFiles(realFileSystem, { real: folder }, "linux");
    assert.equal(await fs.writeStreamAtomic(join(folder, "sub", "b.txt"), bytes("new"), 0o600), 3);
    assert.equal(await Deno.readTextFile(join(folder, "sub", "b.txt")), "new");
    // The file's own name may be a link: replacing it replaces the link, never its target.
    await fs.writeStreamAtomic(join(folder, "secret-link"), bytes("mine"), 0o600, {
      overwrite: true,
    });
    assert.equal(await Deno.readTextFile(join(outside, "secret")), "SECRET");
    assert.equal(await Deno.readTextFile(join(folder, "secret-link")), "mine");
    assert.ok(!(await Deno.lstat(join(folder, "secret-link"))).isSymlink);

    await refused(
      fs.writeStreamAtomic(join(folder, "out", "planted"), bytes("x"), 0o600),
      /leads through a link outside/,
    );
    await refused(
      fs.writeStreamAtomic(join(folder, ".git", "config"), bytes("x"), 0o600, { overwrite: true }),
      /it names the hidden "\.git"/,
    );
    const off = confinedFiles(realFileSystem, undefined, "linux");
    await refused(
      off.writeStreamAtomic(join(folder, "c.txt"), bytes("x"), 0o600),
      /local files are off for agents/,
    );
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret"]);
    assert.equal(await Deno.readTextFile(join(folder, ".git", "config")), "[core]");
    const left = [...Deno.readDirSync(folder)].map((e) => e.name).filter((n) => /\.tmp$/.test(n));
    assert.deepEqual(left, [], "no temporary file is left behind");
  });
});

Deno.test("confinedFiles() passes the real path to a confine of its own caller too", async () => {
  await withFolders(async ({ folder }) => {
    const seen: string[] = [];
    const fs = confinedFiles(realFileSystem, { real: folder }, "linux");
    const { stream } = await fs.openRead(join(folder, "a-link"), {
      confine: (real) => void seen.push(real),
    });
    await stream.cancel();
    assert.deepEqual(seen, [join(folder, "a.txt")]);
  });
});
