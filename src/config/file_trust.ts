/**
 * Files hark takes instructions from (the config file, a `credential_command` program) must be
 * the user's own: a file that another user could have written, or that belongs to another user,
 * could name another server, other keychain entries or another program. Such a file is refused,
 * as OpenSSH refuses a `~/.ssh/config` others can write. (POSIX only: Windows has no such
 * modes, and these checks pass there.)
 *
 * @module
 */

import type { Context, FileInfo } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import { shellQuote } from "../errors/shell_quote.ts";
import { parentFolder } from "../path.ts";

/** What a checked file is, for messages and fixes. */
export interface TrustedFileKind {
  /** How the file is named in messages: `the config file`, `the credential command`. */
  what: string;
  /** The setting that names the file, for the error's `param`. */
  param: string;
  /** The mode that makes the file private: `600` for a config, `go-w` for a program. */
  chmod: string;
}

/** The root user: files it owns are trusted (system programs, a config an admin installed). */
const ROOT = 0;

/**
 * Refuses `path` (whose {@link FileInfo} is `info`, links followed) when another user owns it
 * (root excepted), when other users can write to it, or when its folder lets other users
 * replace it (writable by others and not sticky, as `/tmp` is). For a link, the folder of the
 * link and the folder of the file it leads to are both checked.
 *
 * @param ctx the context (files and the user id)
 * @param path the file as named
 * @param info what `ctx.fs.stat(path)` told
 * @param kind what the file is
 * @throws {ValidationError} naming the file, what is wrong and the command that fixes it
 */
export async function checkTrustedFile(
  ctx: Pick<Context, "fs" | "os">,
  path: string,
  info: FileInfo,
  kind: TrustedFileKind,
): Promise<void> {
  if (ctx.os === "windows" || info.mode === undefined) return;
  const me = ctx.fs.userId();
  const quoted = shellQuote(path);
  if (me !== undefined && info.uid !== undefined && info.uid !== me && info.uid !== ROOT) {
    throw new ValidationError(
      `Refusing ${kind.what} "${path}": it belongs to another user (uid ${info.uid}), who ` +
        "could change what it says at any time",
      {
        param: kind.param,
        suggestion: `Use a file of your own (a copy you have read through), or have it given ` +
          "to you by its owner or an administrator",
        command: `sudo chown "$(id -u)" ${quoted}`,
      },
    );
  }
  if ((info.mode & 0o022) !== 0) {
    throw new ValidationError(
      `Refusing ${kind.what} "${path}": other users can write to it (mode ${octal(info.mode)})`,
      {
        param: kind.param,
        suggestion: `Make it yours alone with: chmod ${kind.chmod} ${quoted} (and check that ` +
          "nobody changed it)",
        command: `chmod ${kind.chmod} ${quoted}`,
      },
    );
  }
  const folders = new Set([parentFolder(ctx.os, path)]);
  const real = await ctx.fs.realPath(path);
  if (real !== undefined) folders.add(parentFolder(ctx.os, real));
  for (const folder of folders) {
    const where = await ctx.fs.stat(folder);
    if (where?.mode === undefined || (where.mode & 0o022) === 0) continue;
    if ((where.mode & 0o1000) !== 0) continue; // sticky: no one replaces another's file
    throw new ValidationError(
      `Refusing ${kind.what} "${path}": its folder "${folder}" lets other users replace it ` +
        `(mode ${octal(where.mode)})`,
      {
        param: kind.param,
        suggestion: "Move the file to a folder only you can write to, or have the folder " +
          `closed to others with: chmod go-w ${shellQuote(folder)}`,
        command: `chmod go-w ${shellQuote(folder)}`,
      },
    );
  }
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, "0")}`;
}
