/**
 * The file system of `hark mcp`: the server's own, except that every file a user names (the
 * uploads and `file` parameters read through {@link FileSystem.openRead}, the downloads written
 * through {@link FileSystem.writeStreamAtomic}) is checked once opened, or where it is written,
 * against the `--files` folder's rules ({@link checkConfined}). The arguments were checked
 * before the call ran (`resolveLocalPath`); this checks the file actually used, so a link
 * swapped in between reaches nothing. Config and keychain files, which hark reads and writes
 * for itself, are not user files and pass as they are.
 *
 * @module
 */

import type { Confine, FileSystem, OsName } from "../context.ts";
import { checkConfined, type FilesFolder } from "./local_files.ts";

/**
 * `fs`, with the files users name kept to `folder`: without a folder, none can be used.
 *
 * @param fs the server's file system
 * @param folder the `--files` folder, or `undefined` when local files are off
 * @param os whose path rules apply: `ctx.os`
 */
export function confinedFiles(
  fs: FileSystem,
  folder: FilesFolder | undefined,
  os: OsName,
): FileSystem {
  const confine = (path: string, also?: Confine): Confine => (real) => {
    checkConfined(folder, os, path, real);
    also?.(real);
  };
  const confined: Pick<FileSystem, "openRead" | "writeStreamAtomic"> = {
    openRead: (path, options = {}) =>
      fs.openRead(path, { ...options, confine: confine(path, options.confine) }),
    writeStreamAtomic: (path, data, mode, options = {}) =>
      fs.writeStreamAtomic(path, data, mode, {
        ...options,
        confine: confine(path, options.confine),
      }),
  };
  return Object.create(fs, {
    openRead: { value: confined.openRead, enumerable: true },
    writeStreamAtomic: { value: confined.writeStreamAtomic, enumerable: true },
  });
}
