/**
 * Where tools may reach files on the machine hark runs on. An agent reads untrusted text (chat
 * messages, event descriptions), so a prompt injection could ask it to upload `~/.ssh/id_rsa` or
 * to download over `.git/config`. `hark mcp` therefore lets a tool argument that names a local
 * file ({@link ParamSpec.localPath}, and every `file` parameter) through only when the person
 * who starts the server gave a folder with `--files`, and only for a path that stays inside it
 * once `..` and links are resolved, names nothing hidden below it (no name starting with a dot:
 * `.git`, `.envrc`, `.vscode`, `.ssh`), and stays out of hark's own config and keychain folders.
 * The folder may be neither the root nor the home folder. Without `--files`, local files are off.
 *
 * The same rules are checked again on the file actually opened or written
 * ({@link checkConfined}, used by `confined_files.ts`), so a link swapped in after this check
 * reaches nothing.
 *
 * @module
 */

import type { Context, OsName } from "../context.ts";
import { defaultConfigPath, resolveConfigPath } from "../config/config_path.ts";
import { ValidationError } from "../errors/mod.ts";
import { fileKeychainDir } from "../keychain/file_keychain.ts";
import { baseName, joinPath, parentFolder } from "../path.ts";
import type { ParamSpec } from "../shortcuts/definition.ts";

/** The flag that gives the folder. */
export const FILES_FLAG = "--files";

/** The one folder tools may read from and write to (`hark mcp --files`). */
export interface FilesFolder {
  /** Its real path: absolute, links resolved. Tools are told this one. */
  real: string;
  /**
   * The absolute path as the person gave it, when it differs from the real one (`/tmp/x` for
   * `/private/tmp/x`): paths spelled through it are accepted too, and checked all the same.
   */
  given?: string;
  /**
   * hark's own folders inside it (real paths), which tools never reach: the config folder and
   * the file keychain's folder.
   */
  fenced?: FencedFolder[];
}

/** A folder inside the `--files` folder that tools never reach. */
export interface FencedFolder {
  /** Its real path. */
  real: string;
  /** What it is, for messages: `hark's config folder`. */
  what: string;
}

/**
 * Resolves a path's links: the real path, `undefined` when nothing is there; rejects for any
 * other failure (a link whose target is missing included). {@link FileSystem.realPath}.
 */
export type RealPathOf = (path: string) => Promise<string | undefined>;

/** What {@link resolveLocalPath} checks a path against. */
export interface LocalPathRules {
  /** The folder, or `undefined` when local files are off. */
  folder: FilesFolder | undefined;
  /** Whose path rules apply: `ctx.os`. */
  os: OsName;
  /** Resolves links. */
  realPath: RealPathOf;
}

/**
 * Whether a parameter names a local file, and what the shortcut does with it: its
 * `localPath` mark, and `read` for every `file` parameter (its content is read).
 *
 * @param param the parameter
 */
export function localPathOf(param: ParamSpec): "read" | "write" | undefined {
  return param.localPath ?? (param.type === "file" ? "read" : undefined);
}

/**
 * Opens the folder of `hark mcp --files`: it must exist and be a folder; it is kept as its real
 * path. A leading `~` is the home folder (an MCP host starts hark without a shell to expand it).
 * The root of the disk, the home folder and any folder holding it are refused (tools could reach
 * every key and start-up file), as is a folder inside hark's own config or keychain folder; those
 * folders, when inside it, are fenced off.
 *
 * @param ctx the context (files, home, OS, environment: where hark's folders are)
 * @param given the flag's value
 * @throws {ValidationError} naming `--files` when the folder is missing, not a folder, or one
 *   of those refused
 */
export async function openFilesFolder(ctx: Context, given: string): Promise<FilesFolder> {
  const shown = JSON.stringify(given);
  const bad = (problem: string, suggestion: string, cause?: unknown) =>
    new ValidationError(`Cannot use ${shown} for ${FILES_FLAG}: ${problem}`, {
      param: FILES_FLAG,
      suggestion,
      cause,
    });
  if (given.trim() === "") {
    throw bad("no folder given", `Give the folder tools may use: ${FILES_FLAG} ~/hark-files`);
  }
  const tilde = /^~(?=$|[\\/])/.test(given);
  const home = ctx.homeDir;
  if (tilde && home === undefined) {
    throw bad("the home folder is unknown", `Give the folder's full path to ${FILES_FLAG}`);
  }
  const path = tilde && home !== undefined ? joinPath(ctx.os, home, given.slice(1)) : given;
  let real: string | undefined;
  try {
    real = await ctx.fs.realPath(path);
  } catch (error) {
    throw bad(messageOf(error), `Give an existing folder to ${FILES_FLAG}`, error);
  }
  const info = real === undefined ? undefined : await ctx.fs.stat(real);
  if (real === undefined || info === undefined) {
    throw bad("the folder does not exist", `Create it first: mkdir -p ${JSON.stringify(path)}`);
  }
  if (!info.isDirectory) {
    throw bad("it is not a folder", `Give a folder to ${FILES_FLAG}, not a file`);
  }
  const own = `Make a folder for the agent's files and give that: mkdir ~/hark-files, then ` +
    `${FILES_FLAG} ~/hark-files`;
  if (parentFolder(ctx.os, real) === real) {
    throw bad("it is the root of the disk, and tools could reach every file", own);
  }
  const realHome = home === undefined ? undefined : await nearestRealPath(ctx, home);
  if (realHome !== undefined && isInside(ctx.os, realHome, real)) {
    const which = sameFolder(ctx.os, realHome, real)
      ? "it is your home folder"
      : "it holds your home folder";
    throw bad(`${which}, and tools could reach your keys and start-up files`, own);
  }
  const fenced: FencedFolder[] = [];
  for (const { path: folder, what } of harkFolders(ctx)) {
    const fence = await nearestRealPath(ctx, folder);
    if (fence === undefined) continue;
    if (isInside(ctx.os, real, fence)) {
      throw bad(`it is inside ${what} "${fence}", which tools never reach`, own);
    }
    if (isInside(ctx.os, fence, real) && !fenced.some((f) => sameFolder(ctx.os, f.real, fence))) {
      fenced.push({ real: fence, what });
    }
  }
  const folder: FilesFolder = { real };
  if (isRooted(ctx.os, path)) {
    const absolute = trimSeparators(ctx.os, joinPath(ctx.os, path));
    if (absolute !== real) folder.given = absolute;
  }
  if (fenced.length > 0) folder.fenced = fenced;
  return folder;
}

/** hark's own folders: where its config files and its file keychain live. */
function harkFolders(ctx: Context): { path: string; what: string }[] {
  const folders: { path: string; what: string }[] = [];
  const add = (what: string, path: () => string) => {
    try {
      folders.push({ path: path(), what });
    } catch {
      // No such place here (no home folder): nothing to fence.
    }
  };
  add("hark's config folder", () => parentFolder(ctx.os, resolveConfigPath(ctx)));
  add("hark's config folder", () => parentFolder(ctx.os, defaultConfigPath(ctx)));
  add("hark's keychain folder", () => fileKeychainDir(ctx));
  return folders;
}

/**
 * The real path of `path`, or, when it does not exist yet, its nearest existing folder's real
 * path with the missing names joined on; `undefined` when nothing of it exists.
 */
async function nearestRealPath(
  ctx: Pick<Context, "fs" | "os">,
  path: string,
): Promise<string | undefined> {
  try {
    return await realPathBelow(ctx.os, (p) => ctx.fs.realPath(p), joinPath(ctx.os, path));
  } catch {
    return undefined;
  }
}

/**
 * The real path of an absolute `path` whose end may not exist yet: its nearest existing
 * ancestor's real path with the missing names joined on; `undefined` when nothing exists.
 *
 * @throws what `realPath` throws (a link whose target is missing)
 */
async function realPathBelow(
  os: OsName,
  realPath: RealPathOf,
  path: string,
): Promise<string | undefined> {
  const missing: string[] = [];
  let at = trimSeparators(os, path);
  let real: string | undefined;
  while ((real = await realPath(at)) === undefined) {
    const up = parentFolder(os, at);
    if (up === at) return undefined;
    missing.unshift(baseName(os, at));
    at = up;
  }
  return joinPath(os, real, ...missing);
}

/**
 * The path a tool's argument names, checked against the folder: relative paths start in the
 * folder (never the server's working folder); the path must stay inside it after `..` and
 * links are resolved (an existing path's real path, else its nearest existing folder's, must be
 * the folder or inside it), with no hidden name below the folder and nothing in a fenced
 * folder, as spelled and once resolved. A trailing separator (a folder to download into) is
 * kept.
 *
 * @param rules the folder, the OS and the link resolver
 * @param argument the argument's name (`file`), named by the error
 * @param access whether the shortcut reads or writes the file, for the message
 * @param value the argument's value
 * @returns the absolute path to hand the shortcut
 * @throws {ValidationError} naming the argument when local files are off, the value is not a
 *   path, or it leads where tools may not go; nothing has been read or written then
 */
export async function resolveLocalPath(
  rules: LocalPathRules,
  argument: string,
  access: "read" | "write",
  value: unknown,
): Promise<string> {
  const { folder, os } = rules;
  const shown = typeof value === "string" ? JSON.stringify(value) : String(JSON.stringify(value));
  const cannot = `Cannot ${access} ${shown} (${argument})`;
  if (folder === undefined) {
    throw new ValidationError(
      `${cannot}: local files are off for agents, as hark mcp runs without ${FILES_FLAG}`,
      {
        param: argument,
        suggestion: `Ask the person running hark to start hark mcp with ${FILES_FLAG} <folder>, ` +
          "the one folder tools may read from and write to",
        command: "hark mcp --help",
      },
    );
  }
  if (typeof value !== "string" || value.trim() === "") {
    throw new ValidationError(
      `Invalid value ${shown} for ${argument}: expected a path inside "${folder.real}"`,
      {
        param: argument,
        suggestion: `Give a path inside "${folder.real}" (relative paths start there)`,
      },
    );
  }
  if (os === "windows" && hasAmbiguousName(value)) {
    throw new ValidationError(
      `Invalid value ${shown} for ${argument}: a name in it ends with a dot or a space, or ` +
        "holds a colon, which Windows reads differently",
      { param: argument, suggestion: `Give a plain path inside "${folder.real}"` },
    );
  }
  const path = isRooted(os, value) ? joinPath(os, value) : joinPath(os, folder.real, value);
  const root = [folder.real, folder.given].find((r) => r !== undefined && isInside(os, path, r));
  // Nothing outside the folder is even looked at (a UNC path would reach out to its server).
  const spelled = root === undefined ? "is outside" : fenceProblem(folder, os, path, root);
  if (spelled !== undefined) throw fenceError(folder, cannot, argument, spelled);

  let real: string | undefined;
  try {
    real = await realPathBelow(os, rules.realPath, path);
  } catch (error) {
    throw new ValidationError(`${cannot}: ${messageOf(error)}`, {
      param: argument,
      suggestion: `Give a path inside "${folder.real}" that leads to no missing link`,
      cause: error,
    });
  }
  const resolved = real === undefined
    ? "leads through a link outside"
    : fenceProblem(folder, os, real);
  if (resolved !== undefined) throw fenceError(folder, cannot, argument, resolved);
  return path;
}

/**
 * Checks the real path of a file about to be read or written, as {@link resolveLocalPath}
 * checks an argument: for the file actually opened, after links were followed.
 *
 * @param folder the `--files` folder, or `undefined` when local files are off
 * @param os whose path rules apply
 * @param path the path the file was opened by, for the message
 * @param real its real path
 * @throws {ValidationError} naming the path when it may not be used
 */
export function checkConfined(
  folder: FilesFolder | undefined,
  os: OsName,
  path: string,
  real: string,
): void {
  const cannot = `Cannot use ${JSON.stringify(path)}`;
  if (folder === undefined) {
    throw new ValidationError(
      `${cannot}: local files are off for agents, as hark mcp runs without ${FILES_FLAG}`,
      { suggestion: `Ask the person running hark to start hark mcp with ${FILES_FLAG} <folder>` },
    );
  }
  const problem = fenceProblem(folder, os, real);
  if (problem !== undefined) throw fenceError(folder, cannot, undefined, problem);
}

/**
 * What is wrong with an absolute path inside `root` (the folder as resolved, or as spelled):
 * `undefined` when tools may use it, else how it strays, worded to follow "it".
 */
function fenceProblem(
  folder: FilesFolder,
  os: OsName,
  path: string,
  root = folder.real,
): string | undefined {
  if (!isInside(os, path, root)) return "leads through a link outside";
  const hidden = namesBelow(os, path, root).find((name) => name.startsWith("."));
  if (hidden !== undefined) return `names the hidden "${hidden}"`;
  const fence = folder.fenced?.find((f) => isInside(os, path, f.real));
  return fence === undefined ? undefined : `reaches ${fence.what} "${fence.real}"`;
}

function fenceError(
  folder: FilesFolder,
  cannot: string,
  argument: string | undefined,
  how: string,
): ValidationError {
  const where = `"${folder.real}", the one folder hark mcp lets tools use (${FILES_FLAG})`;
  const [message, suggestion] = how.startsWith("names the hidden")
    ? [
      `${cannot}: it ${how}: hark mcp never lets tools read or write hidden files or folders ` +
      "(names starting with a dot, such as .git, .envrc or .ssh)",
      `Give a path inside "${folder.real}" with no name starting with a dot`,
    ]
    : how.startsWith("reaches")
    ? [
      `${cannot}: it ${how}, which hark mcp never lets tools reach`,
      `Give another path inside "${folder.real}"`,
    ]
    : [
      `${cannot}: it ${how} ${where}`,
      `Give a path inside "${folder.real}" (relative paths start there)`,
    ];
  return new ValidationError(message, {
    param: argument,
    suggestion,
    command: "hark mcp --help",
  });
}

/** The names of `path` below `folder`, which holds it (`a`, `b` for `/f/a/b` in `/f`). */
function namesBelow(os: OsName, path: string, folder: string): string[] {
  const rest = trimSeparators(os, path).slice(trimSeparators(os, folder).length);
  return rest.split(os === "windows" ? /[\\/]+/ : /\/+/).filter((name) => name !== "");
}

/** Whether two absolute paths name the same folder (case-blind on Windows). */
function sameFolder(os: OsName, a: string, b: string): boolean {
  return isInside(os, a, b) && isInside(os, b, a);
}

/**
 * Whether `path` is `folder` or inside it, both absolute and normalized: compared name by name
 * (`/data/files-evil` is not inside `/data/files`), without regard to case on Windows.
 *
 * @param os whose path rules apply
 * @param path the path
 * @param folder the folder
 */
export function isInside(os: OsName, path: string, folder: string): boolean {
  const separator = os === "windows" ? "\\" : "/";
  const plain = (text: string) => {
    const trimmed = trimSeparators(os, text);
    return os === "windows" ? trimmed.replaceAll("/", "\\").toLowerCase() : trimmed;
  };
  const [p, f] = [plain(path), plain(folder)];
  return p === f || p.startsWith(f.endsWith(separator) ? f : f + separator);
}

/** Whether a path starts at a root: `/` on POSIX; a drive, `\` or a UNC share on Windows. */
function isRooted(os: OsName, path: string): boolean {
  return os === "windows" ? /^([A-Za-z]:|[\\/])/.test(path) : path.startsWith("/");
}

/** A path without its trailing separators, a root kept whole (`/`, `C:\`). */
function trimSeparators(os: OsName, path: string): string {
  const trimmed = path.replace(os === "windows" ? /[\\/]+$/ : /\/+$/, "");
  if (trimmed === "" || (os === "windows" && /^[A-Za-z]:$/.test(trimmed))) {
    return path.slice(0, trimmed.length + 1);
  }
  return trimmed;
}

/**
 * Whether a Windows path has a name Windows would not take as written: one ending with a dot or
 * a space (`.. `, `a.`: trimmed by the system) or holding a colon past the drive (a stream).
 */
function hasAmbiguousName(path: string): boolean {
  const names = path.replace(/^[A-Za-z]:/, "").split(/[\\/]/);
  return names.some((name) =>
    name.includes(":") || (name !== "." && name !== ".." && /[. ]$/.test(name))
  );
}

/** An error's message; anything else thrown, as text. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
