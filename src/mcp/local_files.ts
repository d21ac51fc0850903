/**
 * Where tools may reach files on the machine hark runs on. An agent reads untrusted text (chat
 * messages, event descriptions), so a prompt injection could ask it to upload `~/.ssh/id_rsa` or
 * to download over `~/.bashrc`. `hark mcp` therefore lets a tool argument that names a local
 * file ({@link ParamSpec.localPath}, and every `file` parameter) through only when the person
 * who starts the server gave a folder with `--files`, and only for a path that stays inside it
 * once `..` and links are resolved. Without `--files`, local files are off.
 *
 * @module
 */

import type { Context, OsName } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
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
 *
 * @param ctx the context (files, home, OS)
 * @param given the flag's value
 * @throws {ValidationError} naming `--files` when the folder is missing or not a folder
 */
export async function openFilesFolder(
  ctx: Pick<Context, "fs" | "os" | "homeDir">,
  given: string,
): Promise<FilesFolder> {
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
  let path = given;
  if (/^~(?=$|[\\/])/.test(given)) {
    if (ctx.homeDir === undefined) {
      throw bad("the home folder is unknown", `Give the folder's full path to ${FILES_FLAG}`);
    }
    path = joinPath(ctx.os, ctx.homeDir, given.slice(1));
  }
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
  const folder: FilesFolder = { real };
  if (isRooted(ctx.os, path)) {
    const absolute = trimSeparators(ctx.os, joinPath(ctx.os, path));
    if (absolute !== real) folder.given = absolute;
  }
  return folder;
}

/**
 * The path a tool's argument names, checked against the folder: relative paths start in the
 * folder (never the server's working folder); the path must stay inside it after `..` and
 * links are resolved (an existing path's real path, else its nearest existing folder's, must be
 * the folder or inside it). A trailing separator (a folder to download into) is kept.
 *
 * @param rules the folder, the OS and the link resolver
 * @param argument the argument's name (`file`), named by the error
 * @param access whether the shortcut reads or writes the file, for the message
 * @param value the argument's value
 * @returns the absolute path to hand the shortcut
 * @throws {ValidationError} naming the argument when local files are off, the value is not a
 *   path, or it leads outside the folder; nothing has been read or written then
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
  const outside = (how: string) =>
    new ValidationError(
      `${cannot}: it ${how} "${folder.real}", the one folder hark mcp lets tools use ` +
        `(${FILES_FLAG})`,
      {
        param: argument,
        suggestion: `Give a path inside "${folder.real}" (relative paths start there)`,
        command: "hark mcp --help",
      },
    );
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
  const roots = folder.given === undefined ? [folder.real] : [folder.real, folder.given];
  // Nothing outside the folder is even looked at (a UNC path would reach out to its server).
  if (!roots.some((root) => isInside(os, path, root))) throw outside("is outside");

  let real: string | undefined;
  const missing: string[] = [];
  try {
    let at = trimSeparators(os, path);
    while ((real = await rules.realPath(at)) === undefined) {
      const up = parentFolder(os, at);
      if (up === at) break;
      missing.unshift(baseName(os, at));
      at = up;
    }
  } catch (error) {
    throw new ValidationError(`${cannot}: ${messageOf(error)}`, {
      param: argument,
      suggestion: `Give a path inside "${folder.real}" that leads to no missing link`,
      cause: error,
    });
  }
  if (real === undefined || !isInside(os, joinPath(os, real, ...missing), folder.real)) {
    throw outside("leads through a link outside");
  }
  return path;
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
