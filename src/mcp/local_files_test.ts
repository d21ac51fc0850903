import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { loadServices } from "../shortcuts/services.ts";
import { realFileSystem } from "../runtime/real_file_system.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  checkConfined,
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
  assert.equal(await resolve("~/notes.txt"), "/data/files/~/notes.txt");
});

Deno.test("resolveLocalPath() refuses a hidden name below the folder, as spelled or once resolved", async () => {
  const fs = fakeFs([...PRESENT, "/data/files/.git", "/data/files/.git/config"], {
    "/data/files/notes": "/data/files/.git/config",
  });
  const cases: [string, "read" | "write", string][] = [
    [".git/config", "write", ".git"],
    ["./.git/", "write", ".git"],
    ["sub/.envrc", "write", ".envrc"],
    ["/data/files/.ssh/id_rsa", "read", ".ssh"],
    ["~/.ssh/id_rsa", "read", ".ssh"],
    ["sub/../.vscode/tasks.json", "write", ".vscode"],
    ["notes", "read", ".git"],
  ];
  for (const [value, access, hidden] of cases) {
    const error = await refusal(resolveLocalPath(rules(FOLDER, fs), "file", access, value));
    assert.equal(error.param, "file");
    assert.equal(
      error.message,
      `Cannot ${access} ${JSON.stringify(value)} (file): it names the hidden "${hidden}": hark ` +
        "mcp never lets tools read or write hidden files or folders (names starting with a " +
        "dot, such as .git, .envrc or .ssh)",
    );
    assert.equal(
      error.recovery.suggestion,
      'Give a path inside "/data/files" with no name starting with a dot',
    );
  }
  // Above the folder a dot is the person's choice, and a dot inside a name is no hidden name.
  const dotted: FilesFolder = { real: "/home/u/.agent/files" };
  const inDot = fakeFs(["/", "/home", "/home/u", "/home/u/.agent", "/home/u/.agent/files"]);
  assert.equal(
    await resolveLocalPath(rules(dotted, inDot), "file", "write", "a.b.txt"),
    "/home/u/.agent/files/a.b.txt",
  );
});

Deno.test("resolveLocalPath() keeps tools out of hark's own folders inside the folder", async () => {
  const folder: FilesFolder = {
    real: "/data/files",
    fenced: [{ real: "/data/files/hark", what: "hark's config folder" }],
  };
  const fs = fakeFs([...PRESENT, "/data/files/hark", "/data/files/hark/config.json"], {
    "/data/files/cfg": "/data/files/hark/config.json",
  });
  for (const value of ["hark/config.json", "hark/", "hark", "cfg", "hark/new.json"]) {
    const error = await refusal(resolveLocalPath(rules(folder, fs), "file", "write", value));
    assert.equal(
      error.message,
      `Cannot write ${JSON.stringify(value)} (file): it reaches hark's config folder ` +
        '"/data/files/hark", which hark mcp never lets tools reach',
    );
  }
  assert.equal(
    await resolveLocalPath(rules(folder, fs), "file", "write", "harkness.txt"),
    "/data/files/harkness.txt",
  );
});

Deno.test("checkConfined() applies the same rules to the real path of a file opened", () => {
  const folder: FilesFolder = {
    real: "/data/files",
    fenced: [{ real: "/data/files/keys", what: "hark's keychain folder" }],
  };
  checkConfined(folder, "linux", "a.txt", "/data/files/sub/a.txt");
  const refused = (real: string, how: RegExp) =>
    assert.throws(() => checkConfined(folder, "linux", "x.txt", real), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.match(error.message, how);
      return true;
    });
  refused("/etc/passwd", /^Cannot use "x.txt": it leads through a link outside "\/data\/files"/);
  refused("/data/files/.git/config", /^Cannot use "x.txt": it names the hidden "\.git"/);
  refused("/data/files/keys/a.json", /it reaches hark's keychain folder "\/data\/files\/keys"/);
  assert.throws(
    () => checkConfined(undefined, "linux", "x.txt", "/data/files/a.txt"),
    /^ValidationError: Cannot use "x.txt": local files are off for agents/,
  );
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

Deno.test("openFilesFolder() refuses the root, the home folder and what holds it, and hark's own folders", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    const home = join(root, "home");
    await Deno.mkdir(join(home, "work", "hark-config"), { recursive: true });
    await Deno.mkdir(join(home, "work", "data", "keychain"), { recursive: true });
    const ctx = createTestContext({
      homeDir: home,
      env: {
        HARK_CONFIG: join(home, "work", "hark-config", "config.json"),
        HARK_DATA_DIR: join(home, "work", "data"),
      },
    });
    const cases: [string, string][] = [
      ["/", "it is the root of the disk, and tools could reach every file"],
      ["~", "it is your home folder, and tools could reach your keys and start-up files"],
      ["~/", "it is your home folder, and tools could reach your keys and start-up files"],
      [home, "it is your home folder, and tools could reach your keys and start-up files"],
      [root, "it holds your home folder, and tools could reach your keys and start-up files"],
      [
        join(home, "work", "hark-config"),
        `it is inside hark's config folder "${join(home, "work", "hark-config")}", which tools ` +
        "never reach",
      ],
      [
        join(home, "work", "data", "keychain"),
        `it is inside hark's keychain folder "${join(home, "work", "data", "keychain")}", ` +
        "which tools never reach",
      ],
    ];
    for (const [given, problem] of cases) {
      const error = await refusal(openFilesFolder(ctx, given));
      assert.equal(error.param, "--files");
      assert.equal(error.message, `Cannot use ${JSON.stringify(given)} for --files: ${problem}`);
      assert.match(error.recovery.suggestion, /mkdir ~\/hark-files, then --files ~\/hark-files/);
    }
    // A folder holding hark's folders is taken, with them fenced off.
    const work = await openFilesFolder(ctx, "~/work");
    assert.deepEqual(work, {
      real: join(home, "work"),
      fenced: [
        { real: join(home, "work", "hark-config"), what: "hark's config folder" },
        { real: join(home, "work", "data", "keychain"), what: "hark's keychain folder" },
      ],
    });
    const plain = createTestContext({ homeDir: join(root, "other") });
    await Deno.mkdir(join(root, "other", "files"), { recursive: true });
    const other = await openFilesFolder(plain, join(root, "other", "files"));
    assert.deepEqual(other, { real: join(root, "other", "files") });
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
