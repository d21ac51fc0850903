import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { loadServices } from "../shortcuts/services.ts";
import { realFileSystem } from "../runtime/real_file_system.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  type FilesFolder,
  isInside,
  localPathOf,
  type LocalPathRules,
  openFilesFolder,
  type RealPathOf,
  resolveLocalPath,
} from "./local_files.ts";

/**
 * A resolver over a made-up file system: `links` maps a link's path to its target; `present`
 * lists the paths (after links) where something exists. Every path it is asked about is recorded.
 */
function fakeFs(present: string[], links: Record<string, string> = {}) {
  const asked: string[] = [];
  const realPath: RealPathOf = (path) => {
    asked.push(path);
    let resolved = path;
    for (const [link, target] of Object.entries(links)) {
      if (resolved === link || resolved.startsWith(`${link}/`)) {
        resolved = target + resolved.slice(link.length);
      }
    }
    return Promise.resolve(present.includes(resolved) ? resolved : undefined);
  };
  return { asked, realPath };
}

const FOLDER: FilesFolder = { real: "/data/files" };
const PRESENT = ["/", "/data", "/data/files", "/data/files/a.txt", "/data/files/sub", "/etc"];

function rules(folder: FilesFolder | undefined, fs = fakeFs(PRESENT)): LocalPathRules {
  return { folder, os: "linux", realPath: fs.realPath };
}

async function refusal(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof ValidationError, `expected a refusal, got ${error}`);
  return error;
}

Deno.test("resolveLocalPath() without --files refuses every path, looking at none", async () => {
  const fs = fakeFs(PRESENT);
  for (const value of ["a.txt", "/etc/passwd", "~/.ssh/id_rsa"]) {
    const error = await refusal(resolveLocalPath(rules(undefined, fs), "file", "read", value));
    assert.equal(error.param, "file");
    assert.equal(
      error.message,
      `Cannot read ${JSON.stringify(value)} (file): local files are off for agents, as hark ` +
        "mcp runs without --files",
    );
    assert.match(error.recovery.suggestion, /start hark mcp with --files <folder>/);
    assert.equal(error.recovery.command, "hark mcp --help");
  }
  const write = await refusal(resolveLocalPath(rules(undefined, fs), "output", "write", "x/"));
  assert.match(write.message, /^Cannot write "x\/" \(output\): local files are off/);
  assert.deepEqual(fs.asked, []);
});

Deno.test("resolveLocalPath() takes relative paths from the folder and keeps a trailing slash", async () => {
  const resolve = (value: string) => resolveLocalPath(rules(FOLDER), "file", "read", value);
  assert.equal(await resolve("a.txt"), "/data/files/a.txt");
  assert.equal(await resolve("./sub/../a.txt"), "/data/files/a.txt");
  assert.equal(await resolve("/data/files/a.txt"), "/data/files/a.txt");
  assert.equal(await resolve("sub/"), "/data/files/sub/");
  assert.equal(await resolve("./"), "/data/files/");
  assert.equal(await resolve("."), "/data/files");
  // Not there yet (a download's target): its nearest existing folder is inside.
  assert.equal(await resolve("sub/new.pdf"), "/data/files/sub/new.pdf");
  assert.equal(await resolve("new/deeper/x.pdf"), "/data/files/new/deeper/x.pdf");
  // A tilde is a name like any other here: never the home folder.
  assert.equal(await resolve("~/.ssh/id_rsa"), "/data/files/~/.ssh/id_rsa");
});

Deno.test("resolveLocalPath() refuses what leads outside, touching nothing outside", async () => {
  const fs = fakeFs([...PRESENT, "/data/files-evil", "/data/files-evil/x"]);
  for (const value of ["../outside.txt", "sub/../../x", "/etc/passwd", "/data/files-evil/x", "/"]) {
    const error = await refusal(resolveLocalPath(rules(FOLDER, fs), "image", "read", value));
    assert.equal(error.param, "image");
    assert.equal(
      error.message,
      `Cannot read ${JSON.stringify(value)} (image): it is outside "/data/files", the one ` +
        "folder hark mcp lets tools use (--files)",
    );
    assert.equal(
      error.recovery.suggestion,
      'Give a path inside "/data/files" (relative paths start there)',
    );
  }
  assert.deepEqual(fs.asked, [], "a path outside is refused before any look at the disk");
});

Deno.test("resolveLocalPath() refuses a link inside that leads outside, to read or to write", async () => {
  const fs = fakeFs(PRESENT.concat("/etc/passwd"), {
    "/data/files/keys": "/etc/passwd",
    "/data/files/etc": "/etc",
  });
  const cases: [string, "read" | "write", string][] = [
    ["keys", "read", "file"],
    ["etc/passwd", "read", "file"],
    ["etc/", "write", "output"],
    ["etc/new.sh", "write", "output"],
    ["/data/files/etc/deeper/new.sh", "write", "output"],
  ];
  for (const [value, access, argument] of cases) {
    const error = await refusal(resolveLocalPath(rules(FOLDER, fs), argument, access, value));
    assert.equal(error.param, argument);
    assert.match(
      error.message,
      new RegExp(
        `^Cannot ${access} "${value}" \\(${argument}\\): it leads through a link ` +
          'outside "/data/files"',
      ),
    );
  }
});

Deno.test("resolveLocalPath() accepts the folder as the person spelled it, checked all the same", async () => {
  const folder = { real: "/private/tmp/f", given: "/tmp/f" };
  const fs = fakeFs(["/", "/private", "/private/tmp", "/private/tmp/f", "/private/tmp/f/a"], {
    "/tmp": "/private/tmp",
  });
  const resolve = (value: string) => resolveLocalPath(rules(folder, fs), "file", "read", value);
  assert.equal(await resolve("/tmp/f/a"), "/tmp/f/a");
  assert.equal(await resolve("a"), "/private/tmp/f/a");
  await refusal(resolve("/tmp/g"));
  await refusal(resolve("/private/tmp/fa"));
});

Deno.test("resolveLocalPath() refuses what is not a path, and a link it cannot follow", async () => {
  for (const value of [42, true, "", "  ", { path: "a" }]) {
    const error = await refusal(resolveLocalPath(rules(FOLDER), "file", "read", value));
    assert.match(
      error.message,
      /^Invalid value .* for file: expected a path inside "\/data\/files"$/,
    );
  }
  const broken: RealPathOf = () => Promise.reject(new Error("No such file or directory"));
  const error = await refusal(
    resolveLocalPath({ folder: FOLDER, os: "linux", realPath: broken }, "file", "read", "a"),
  );
  assert.equal(error.message, 'Cannot read "a" (file): No such file or directory');
});

Deno.test("resolveLocalPath() on Windows: case-blind, either separator, no name Windows rewrites", async () => {
  const present = ["C:\\", "C:\\Data", "C:\\Data\\Files", "C:\\Data\\Files\\a.txt"];
  const fs = fakeFs(present);
  const windows: LocalPathRules = {
    folder: { real: "C:\\Data\\Files" },
    os: "windows",
    realPath: (path) => fs.realPath(path.replace(/^c:\\data\\files/i, "C:\\Data\\Files")),
  };
  const resolve = (value: string) => resolveLocalPath(windows, "file", "read", value);
  assert.equal(await resolve("a.txt"), "C:\\Data\\Files\\a.txt");
  assert.equal(await resolve("c:/data/files/a.txt"), "c:\\data\\files\\a.txt");
  assert.equal(await resolve("sub/"), "C:\\Data\\Files\\sub\\");
  for (const value of ["..\\x", "C:\\Data\\Files-evil\\x", "\\\\evil\\share\\x", "D:x", "\\x"]) {
    assert.match((await refusal(resolve(value))).message, /: it is outside "C:\\Data\\Files"/);
  }
  for (const value of ["a.txt:secret", ".. \\x", "a.txt.", "sub \\x"]) {
    assert.match((await refusal(resolve(value))).message, /Windows reads differently$/);
  }
  assert.ok(!fs.asked.some((path) => /evil/i.test(path)), "nothing outside is looked at");
});

Deno.test("isInside() compares whole names", () => {
  assert.equal(isInside("linux", "/data/files", "/data/files"), true);
  assert.equal(isInside("linux", "/data/files/", "/data/files"), true);
  assert.equal(isInside("linux", "/data/files/x", "/data/files/"), true);
  assert.equal(isInside("linux", "/data/files-evil", "/data/files"), false);
  assert.equal(isInside("linux", "/data/File/x", "/data/file"), false);
  assert.equal(isInside("linux", "/anything", "/"), true);
  assert.equal(isInside("windows", "C:\\DATA\\files\\x", "c:\\data\\Files"), true);
  assert.equal(isInside("windows", "C:\\data\\files2", "C:\\data\\files"), false);
  assert.equal(isInside("windows", "D:\\x", "C:\\"), false);
});

Deno.test("localPathOf(): the im shortcuts' file arguments are marked, and every file parameter", async () => {
  const marked = (await loadServices()).flatMap((group) => group.shortcuts)
    .flatMap((s) =>
      s.params.filter((p) => localPathOf(p)).map((p) => `${s.verb} ${p.name} ${localPathOf(p)}`)
    );
  assert.deepEqual(marked.sort(), [
    "+download output write",
    "+reply file read",
    "+reply image read",
    "+send file read",
    "+send image read",
  ]);
  assert.equal(localPathOf({ name: "notes", type: "file", description: "" }), "read");
  assert.equal(localPathOf({ name: "notes", type: "string", description: "" }), undefined);
});

Deno.test("on a real disk: links inside that lead out are refused, links that stay in are not", async () => {
  const root = await Deno.makeTempDir();
  try {
    const folder = join(root, "files");
    const outside = join(root, "outside");
    await Deno.mkdir(join(folder, "sub"), { recursive: true });
    await Deno.mkdir(outside);
    await Deno.writeTextFile(join(folder, "a.txt"), "in");
    await Deno.writeTextFile(join(outside, "secret"), "out");
    await Deno.symlink(join(outside, "secret"), join(folder, "secret-link"));
    await Deno.symlink(outside, join(folder, "out-dir"));
    await Deno.symlink(join(folder, "a.txt"), join(folder, "inner-link"));
    await Deno.symlink(join(outside, "not-yet"), join(folder, "dangling"));
    await Deno.symlink(folder, join(root, "files-link"));

    const ctx = createTestContext({ homeDir: root });
    const opened = await openFilesFolder(ctx, join(root, "files-link"));
    assert.deepEqual(opened, {
      real: await Deno.realPath(folder),
      given: join(root, "files-link"),
    });
    const fromHome = await openFilesFolder(ctx, "~/files");
    assert.equal(fromHome.real, opened.real);
    assert.equal(fromHome.given, folder === opened.real ? undefined : folder);
    const real: LocalPathRules = { folder: opened, os: ctx.os, realPath: realFileSystem.realPath };
    const resolve = (value: string, access: "read" | "write" = "read") =>
      resolveLocalPath(real, "file", access, value);

    assert.equal(await resolve("a.txt"), join(opened.real, "a.txt"));
    assert.equal(await resolve("inner-link"), join(opened.real, "inner-link"));
    assert.equal(await resolve(join(root, "files-link", "sub/")), join(root, "files-link", "sub/"));
    assert.equal(await resolve("sub/new.bin", "write"), join(opened.real, "sub", "new.bin"));
    for (const value of ["secret-link", "out-dir/secret", "out-dir/", "out-dir/new.sh"]) {
      assert.match(
        (await refusal(resolve(value, "write"))).message,
        /leads through a link outside/,
      );
    }
    assert.match(
      (await refusal(resolve("dangling", "write"))).message,
      /^Cannot write "dangling" \(file\): /,
    );
    assert.match((await refusal(resolve("../outside/secret"))).message, /is outside/);
    assert.equal(await Deno.readTextFile(join(outside, "secret")), "out");
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("openFilesFolder() refuses a missing folder and a file, naming --files", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(root, "plain"), "x");
    const ctx = createTestContext();
    const cases: [string, RegExp][] = [
      [join(root, "nope"), /: the folder does not exist$/],
      [join(root, "plain"), /: it is not a folder$/],
      ["", /: no folder given$/],
      ["~/x", /: the home folder is unknown$/],
    ];
    for (const [given, problem] of cases) {
      const error = await refusal(openFilesFolder(ctx, given));
      assert.equal(error.param, "--files");
      assert.ok(error.message.startsWith(`Cannot use ${JSON.stringify(given)} for --files: `));
      assert.match(error.message, problem);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
