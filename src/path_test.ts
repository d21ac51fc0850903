import assert from "node:assert/strict";
import { posix, win32 } from "node:path";
import { baseName, joinPath, parentFolder } from "./path.ts";

const POSIX_PATHS = [
  "/home/ada/.config/hark/config.json",
  "/home/ada/.config/hark/",
  "/home//ada///x",
  "/a",
  "/",
  "//a",
  "a",
  "a/b",
  "a/b/",
  "./cfg.json",
  "../up/cfg.json",
  "",
  "dir\\with\\backslashes/file",
  "/../a",
  "a/../..",
  ".",
  "..",
  "./",
];

const WINDOWS_PATHS = [
  "C:\\Users\\ada\\AppData\\Roaming\\hark\\config.json",
  "C:\\Users\\ada\\",
  "C:/Users/ada/hark",
  "C:\\x",
  "C:\\",
  "C:",
  "C:x",
  "\\\\server\\share\\hark\\config.json",
  "\\\\server\\share\\x",
  "\\x\\y",
  "\\",
  "a\\b",
  "a/b\\c",
  "cfg.json",
  "",
  "C:\\..\\x",
  "C:foo\\..\\..",
  "//server",
  "\\\\server\\share",
  "..\\a",
];

Deno.test("parentFolder() and baseName() agree with node:path on POSIX and Windows paths", () => {
  for (const path of POSIX_PATHS) {
    assert.equal(parentFolder("linux", path), posix.dirname(path), `dirname ${path}`);
    assert.equal(parentFolder("darwin", path), posix.dirname(path), `dirname ${path}`);
    assert.equal(baseName("linux", path), posix.basename(path), `basename ${path}`);
  }
  for (const path of WINDOWS_PATHS) {
    assert.equal(parentFolder("windows", path), win32.dirname(path), `dirname ${path}`);
    assert.equal(baseName("windows", path), win32.basename(path), `basename ${path}`);
  }
});

Deno.test("joinPath() agrees with node:path's join on POSIX and Windows paths", () => {
  const tails = [["hark", "config.json"], ["..", "x"], ["./hark/", ""], ["a//b", "./c/"], []];
  for (const head of POSIX_PATHS) {
    for (const tail of tails) {
      assert.equal(joinPath("linux", head, ...tail), posix.join(head, ...tail), `${head} ${tail}`);
    }
  }
  for (const head of WINDOWS_PATHS) {
    for (const tail of tails) {
      assert.equal(
        joinPath("windows", head, ...tail),
        win32.join(head, ...tail),
        `${head} ${tail}`,
      );
    }
  }
  assert.equal(joinPath("linux"), ".");
});
