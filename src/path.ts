/**
 * File path arithmetic for the paths hark builds (config, lock and keychain files), giving what
 * `join`, `dirname` and `basename` of `node:path` give on the same operating system. Code on the
 * start-up path uses these instead: importing any `node:` module starts Deno's Node
 * compatibility layer, which measured 8 ms of the 42 ms of `hark calendar +agenda --dry-run`.
 * The operating system is the context's (`ctx.os`), so a test can ask for Windows rules on Linux.
 *
 * @module
 */

import type { OsName } from "./context.ts";

function isSeparator(os: OsName, c: string | undefined): boolean {
  return c === "/" || (os === "windows" && c === "\\");
}

/**
 * Splits off a path's root: `/` on POSIX; on Windows a drive (`C:`, `C:\\`), a UNC share
 * (`\\\\server\\share\\`) or a bare `\\`. `root` is written with the system's separator;
 * `length` is how many characters of `path` it takes.
 */
function splitRoot(os: OsName, path: string): { root: string; length: number } {
  if (os !== "windows") {
    return path.startsWith("/") ? { root: "/", length: 1 } : { root: "", length: 0 };
  }
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)(?:[\\/]+|$)/.exec(path);
  if (unc) return { root: `\\\\${unc[1]}\\${unc[2]}\\`, length: unc[0].length };
  const drive = /^[A-Za-z]:/.test(path) ? path.slice(0, 2) : "";
  const rooted = isSeparator(os, path[drive.length]);
  return { root: drive + (rooted ? "\\" : ""), length: drive.length + (rooted ? 1 : 0) };
}

/** Resolves `.` and `..` and repeated separators, keeping a trailing separator. */
function normalize(os: OsName, path: string): string {
  const separator = os === "windows" ? "\\" : "/";
  const { root, length } = splitRoot(os, path);
  const rest = path.slice(length);
  const absolute = root.endsWith("\\") || root === "/";
  const names: string[] = [];
  for (const name of rest.split(os === "windows" ? /[\\/]+/ : /\/+/)) {
    if (name === "" || name === ".") continue;
    if (name !== "..") names.push(name);
    else if (names.length > 0 && names.at(-1) !== "..") names.pop();
    else if (!absolute) names.push("..");
  }
  const trailing = isSeparator(os, rest.at(-1)) ? separator : "";
  const body = names.join(separator);
  if (body === "" && !absolute) return `${root}.${trailing}`;
  return root + body + (body === "" ? "" : trailing);
}

/**
 * Joins path parts with the system's separator and normalizes the result, like `join` of
 * `node:path`.
 *
 * @param os whose rules apply: `ctx.os`
 * @param parts the parts; empty ones are skipped
 * @example
 * ```ts
 * joinPath("linux", "/home/ada/.config/", "hark", "config.json"); // "/home/ada/.config/hark/config.json"
 * joinPath("windows", "C:\\Users\\ada", "hark"); // "C:\\Users\\ada\\hark"
 * ```
 */
export function joinPath(os: OsName, ...parts: string[]): string {
  const given = parts.filter((part) => part !== "");
  let joined = given.join(os === "windows" ? "\\" : "/");
  // As node:path does: leading separators make a UNC root only when the first part meant one.
  if (os === "windows" && !/^[\\/]{2}[^\\/]/.test(given[0] ?? "")) {
    joined = joined.replace(/^[\\/]{2,}/, "\\");
  }
  return joined === "" ? "." : normalize(os, joined);
}

/**
 * The folder part of a path, like `dirname` of `node:path`: trailing separators are ignored, a
 * root stays itself and a bare name gives `.`.
 *
 * @param os whose rules apply: `ctx.os`
 * @param path a file path
 */
export function parentFolder(os: OsName, path: string): string {
  const { length } = splitRoot(os, path);
  let end = path.length;
  while (end > length && isSeparator(os, path[end - 1])) end--; // trailing separators
  while (end > length && !isSeparator(os, path[end - 1])) end--; // the last name
  if (os !== "windows" && end === 2 && length === 1) return "//"; // node:path's quirk for "//a"
  if (end > length && isSeparator(os, path[end - 1])) end--; // the separator before it
  if (end > length) return path.slice(0, end);
  return length === 0 ? "." : path.slice(0, length);
}

/**
 * The last part of a path, like `basename` of `node:path` (without a suffix to strip).
 *
 * @param os whose rules apply: `ctx.os`
 * @param path a file path
 */
export function baseName(os: OsName, path: string): string {
  const start = os === "windows" && /^[A-Za-z]:/.test(path) ? 2 : 0;
  let end = path.length;
  while (end > start && isSeparator(os, path[end - 1])) end--;
  let first = end;
  while (first > start && !isSeparator(os, path[first - 1])) first--;
  return path.slice(first, end);
}

/**
 * The extension of a file name, from its last dot, like `extname` of `node:path`: `.gz` for
 * `notes.tar.gz`, nothing for `.bashrc` or `README`.
 *
 * @param name a file name (the last part of a path)
 * @example
 * ```ts
 * extensionOf("report.PDF"); // ".PDF"
 * ```
 */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot);
}
