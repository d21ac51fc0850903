/**
 * The {@link FileSystem} of the real context: the real disk, written so that a file appears
 * whole or not at all, through exclusively created temporary files, in folders checked to be
 * safe from other users.
 *
 * @module
 */

import type { Confine, FileInfo, FileSystem } from "../context.ts";
import { ValidationError } from "../errors/hark_error.ts";
import { baseName, joinPath, parentFolder } from "../path.ts";
import { SYSTEM_OS } from "./system_os.ts";

const encoder = new TextEncoder();

/** The file operations of {@link FileSystem} on the real disk. */
export const realFileSystem: FileSystem = {
  readTextFile: (path) => Deno.readTextFile(path),
  readFile: (path) => Deno.readFile(path),
  async writeFileAtomic(path, data, mode, options = {}) {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const { file, tmp } = await createTempFile(path, mode);
    try {
      try {
        await secureFolder(parentFolder(SYSTEM_OS, path), file, {
          privateFolder: options.privateFolder === true,
        });
        await ensureMode(file, tmp, mode);
        let offset = 0;
        while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
        await file.sync();
      } finally {
        file.close();
      }
      await Deno.rename(tmp, path);
    } catch (error) {
      await Deno.remove(tmp).catch(() => {});
      throw error;
    }
  },
  async mkdir(path, mode) {
    await Deno.mkdir(path, { recursive: true, mode });
  },
  rename: (from, to) => Deno.rename(from, to),
  async remove(path) {
    try {
      await Deno.remove(path);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  },
  async exists(path) {
    try {
      await Deno.lstat(path);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  },
  async readDir(path) {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(path)) names.push(entry.name);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    return names.sort();
  },
  async tryLock(path) {
    for (let attempt = 1;; attempt++) {
      const opened = await openLockFile(path);
      if (opened === undefined) {
        // Removed by its holder between two looks: afresh, a few times.
        if (attempt >= LOCK_ATTEMPTS) return undefined;
        continue;
      }
      const { file, created } = opened;
      let held = false;
      try {
        try {
          await secureFolder(parentFolder(SYSTEM_OS, path), file, {});
        } catch (error) {
          if (created) await Deno.remove(path).catch(() => {});
          throw error;
        }
        if (!(await file.tryLock(true))) return undefined;
        // A holder removes the file before letting go: the file locked must still be the one
        // named, else a newcomer could lock a fresh file at `path` beside us.
        if (!(await stillNamed(path, file))) {
          if (attempt >= LOCK_ATTEMPTS) return undefined;
          continue;
        }
        held = true;
        return async () => {
          try {
            // Windows cannot remove a file another process has open; the empty file stays.
            if (SYSTEM_OS !== "windows" && await stillNamed(path, file)) await Deno.remove(path);
          } catch {
            // An empty lock file left behind does no harm: the next holder locks it.
          } finally {
            file.close();
          }
        };
      } finally {
        if (!held) file.close();
      }
    }
  },
  async mtime(path) {
    try {
      return (await Deno.stat(path)).mtime?.getTime();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  },
  async stat(path): Promise<FileInfo | undefined> {
    try {
      const info = await Deno.stat(path);
      return {
        isFile: info.isFile,
        isDirectory: info.isDirectory,
        size: info.size,
        ...(info.mode === null ? {} : { mode: info.mode & 0o7777 }),
        ...(info.uid === null ? {} : { uid: info.uid }),
      };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  },
  userId() {
    try {
      return Deno.uid() ?? undefined;
    } catch {
      // Without --allow-sys=uid (an older launcher): owners cannot be compared.
      return undefined;
    }
  },
  async realPath(path) {
    const absent = (error: unknown) =>
      error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
    try {
      return await Deno.realPath(path);
    } catch (error) {
      if (!absent(error)) throw error;
      try {
        await Deno.lstat(path);
      } catch (missing) {
        if (absent(missing)) return undefined;
        throw missing;
      }
      throw error; // a link whose target is missing
    }
  },
  async openRead(path, options = {}) {
    const file = await Deno.open(path, { read: true });
    try {
      const info = await file.stat();
      if (info.isDirectory) throw new Deno.errors.IsADirectory(`"${path}" is a folder`);
      if (options.confine) await confirmOpened(path, info, options.confine, "read");
      return { size: info.size, stream: file.readable };
    } catch (error) {
      file.close();
      throw error;
    }
  },
  async writeStreamAtomic(path, data, mode, options = {}) {
    let tmp: string | undefined;
    let written: number;
    let info: Deno.FileInfo;
    const { confine } = options;
    try {
      // Confined, the file goes into its folder's real path, checked, and is renamed within it.
      const target = confine ? await confinedTarget(path, confine) : path;
      const created = await createTempFile(target, mode);
      tmp = created.tmp;
      const { file } = created;
      try {
        if (confine) await confirmOpened(tmp, await file.stat(), confine, "written");
        await secureFolder(parentFolder(SYSTEM_OS, target), file, { allowSticky: true });
        await ensureMode(file, tmp, mode);
        await copyInto(file, data, options.admit);
        await file.sync();
        info = await file.stat();
        written = info.size;
      } finally {
        file.close();
      }
      options.check?.(written);
      // The folder may have been swapped since: the file must still be where it was checked.
      if (confine) await confirmOpened(tmp, info, confine, "written");
      if (options.overwrite) await Deno.rename(tmp, target);
      else await Deno.link(tmp, target);
    } catch (error) {
      // Whatever failed, the source is released (a download's connection, say).
      await data.cancel(error).catch(() => {});
      if (tmp !== undefined) await Deno.remove(tmp).catch(() => {});
      throw error;
    }
    if (!options.overwrite) await Deno.remove(tmp).catch(() => {});
    return written;
  },
};

/** The buffer a byte stream is read into, reused for every chunk: 256 KiB. */
const COPY_BUFFER_BYTES = 256 * 1024;

/**
 * Writes a stream into an open file chunk by chunk, each admitted first with the count it
 * brings the file to. A byte stream (an HTTP body) is read into one reused buffer: reading its
 * chunks as new arrays would leave tens of megabytes of garbage outside V8's heap, which V8 is
 * slow to free, on a large download.
 */
async function copyInto(
  file: Deno.FsFile,
  data: ReadableStream<Uint8Array>,
  admit: ((bytes: number) => void) | undefined,
): Promise<void> {
  let total = 0;
  const write = async (chunk: Uint8Array) => {
    total += chunk.byteLength;
    admit?.(total);
    for (let offset = 0; offset < chunk.byteLength;) {
      offset += await file.write(chunk.subarray(offset));
    }
  };
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = data.getReader({ mode: "byob" });
  } catch {
    byob = undefined; // not a byte stream
  }
  if (byob) {
    try {
      let buffer = new ArrayBuffer(COPY_BUFFER_BYTES);
      for (;;) {
        const { done, value } = await byob.read(new Uint8Array(buffer));
        if (done || value === undefined) break;
        await write(value);
        buffer = value.buffer;
      }
    } finally {
      byob.releaseLock();
    }
    return;
  }
  const reader = data.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await write(value);
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Where a confined write goes: the file's name in the real path of its folder, which `confine`
 * accepts.
 *
 * @throws `Deno.errors.NotFound` when the folder is missing; what `confine` throws
 */
async function confinedTarget(path: string, confine: Confine): Promise<string> {
  const folder = await Deno.realPath(parentFolder(SYSTEM_OS, path));
  const target = joinPath(SYSTEM_OS, folder, baseName(SYSTEM_OS, path));
  confine(target);
  return target;
}

/**
 * Checks a file opened by `path` (`opened` is its own information, from the open handle):
 * `confine` accepts the path's real path, and that real path leads to the very file opened
 * through no link (neither it nor any folder above it is one), and still is the path's real
 * path afterwards. A link swapped in before the open, or between the checks, is caught by one
 * of them, whichever way it is swapped back.
 *
 * @throws what `confine` throws; a `ValidationError` naming the path when it changed
 */
async function confirmOpened(
  path: string,
  opened: Deno.FileInfo,
  confine: Confine,
  access: "read" | "written",
): Promise<void> {
  const changed = () =>
    new ValidationError(
      `Cannot use "${path}": it changed while it was opened (a link was swapped in), so ` +
        `nothing was ${access}`,
      { suggestion: "Make sure nothing else changes the folder while hark uses it, then retry" },
    );
  const real = await Deno.realPath(path);
  confine(real);
  const named = await Deno.lstat(real);
  const same = named.ino === null || opened.ino === null ||
    (named.ino === opened.ino && named.dev === opened.dev);
  if (named.isSymlink || !same) throw changed();
  for (let at = parentFolder(SYSTEM_OS, real);; at = parentFolder(SYSTEM_OS, at)) {
    if ((await Deno.lstat(at)).isSymlink) throw changed();
    if (parentFolder(SYSTEM_OS, at) === at) break;
  }
  if (await Deno.realPath(path) !== real) throw changed();
}

/** How often {@link FileSystem.tryLock} locks a file just removed before calling it busy. */
const LOCK_ATTEMPTS = 8;

/**
 * Opens the lock file at `path`, creating it (0600) when absent (`created`); `undefined` when
 * it vanished between two looks. `createNew` never follows a link; an existing entry is opened only when
 * it is a regular file.
 *
 * @throws {Deno.errors.AlreadyExists} when something other than a regular file is at `path`
 */
async function openLockFile(
  path: string,
): Promise<{ file: Deno.FsFile; created: boolean } | undefined> {
  try {
    const file = await Deno.open(path, { read: true, write: true, createNew: true, mode: 0o600 });
    return { file, created: true };
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = await lstatOf(path);
  if (info === undefined) return undefined;
  if (!info.isFile) throw notALockFile(path);
  try {
    return { file: await Deno.open(path, { read: true }), created: false };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * Whether `path` still names the open `file` (same device and inode, not a link).
 *
 * @throws {Deno.errors.AlreadyExists} when something other than a regular file is at `path`
 */
async function stillNamed(path: string, file: Deno.FsFile): Promise<boolean> {
  const named = await lstatOf(path);
  if (named === undefined) return false;
  if (!named.isFile) throw notALockFile(path);
  const opened = await file.stat();
  return named.ino === opened.ino && named.dev === opened.dev;
}

async function lstatOf(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

function notALockFile(path: string): Deno.errors.AlreadyExists {
  return new Deno.errors.AlreadyExists(`"${path}" is not a regular file`);
}

/** How many random temporary names {@link createTempFile} tries before giving up. */
const TEMP_ATTEMPTS = 8;

/**
 * Creates `<path>.<16 hex digits>.tmp` exclusively: `createNew` fails on anything already at
 * that name, a link (dangling or not) included, so a planted link is never followed.
 */
async function createTempFile(
  path: string,
  mode: number,
): Promise<{ file: Deno.FsFile; tmp: string }> {
  for (let attempt = 1;; attempt++) {
    const suffix = [...crypto.getRandomValues(new Uint8Array(8))]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    const tmp = `${path}.${suffix}.tmp`;
    try {
      return { file: await Deno.open(tmp, { write: true, createNew: true, mode }), tmp };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists) || attempt >= TEMP_ATTEMPTS) throw error;
    }
  }
}

/**
 * Checks the folder a file was just created in (`created`, still open), as
 * {@link FileSystem.writeFileAtomic} documents: refuses a folder every user may write to, or one
 * other users may write to that belongs to someone else; tightens a private folder of the user's
 * to 0700. The user is the owner of `created`, which needs no extra permission to learn.
 *
 * @throws {ValidationError} naming the folder and the fix when it is not safe
 */
async function secureFolder(
  folder: string,
  created: Deno.FsFile,
  options: { privateFolder?: boolean; allowSticky?: boolean },
): Promise<void> {
  const info = await Deno.stat(folder);
  const user = (await created.stat()).uid;
  if (info.mode === null || info.uid === null || user === null) return; // Windows
  const ours = info.uid === user;
  if (ours && options.privateFolder) {
    if ((info.mode & 0o077) !== 0) await Deno.chmod(folder, 0o700);
    return;
  }
  // In a sticky folder (like /tmp) no one can rename or remove another user's file.
  if (options.allowSticky && (info.mode & 0o1000) !== 0) return;
  const everyone = (info.mode & 0o002) !== 0;
  const group = (info.mode & 0o020) !== 0;
  if (!everyone && !(group && !ours)) return;
  const who = ours ? "every user can write to it" : "other users can write to it and it " +
    `belongs to someone else (uid ${info.uid})`;
  throw new ValidationError(`Cannot write in the folder "${folder}": ${who}`, {
    param: folder,
    suggestion: ours
      ? `Make it private with: chmod 700 "${folder}", or use a folder only you can write to`
      : "Use a folder of your own that only you can write to (set HARK_CONFIG or " +
        `HARK_DATA_DIR), or have its owner run: chmod go-w "${folder}"`,
  });
}

/**
 * Gives the new file exactly `mode` when the umask took bits away. The path is changed only
 * while it still names the open file, so a link swapped in meanwhile is not followed.
 */
async function ensureMode(file: Deno.FsFile, path: string, mode: number): Promise<void> {
  const opened = await file.stat();
  if (opened.mode === null || (opened.mode & 0o777) === mode) return;
  const named = await Deno.lstat(path);
  if (!named.isFile || named.ino !== opened.ino || named.dev !== opened.dev) {
    throw new Deno.errors.PermissionDenied(`"${path}" was replaced while being written`);
  }
  await Deno.chmod(path, mode);
}
