/**
 * Saving a streamed answer to disk: the body goes chunk by chunk into a temporary file beside
 * the target, is checked against `Content-Length` and a size cap as it flows, and is renamed
 * into place only when whole, so a failed or cancelled download leaves nothing behind.
 *
 * @module
 */

import type { Context, OsName } from "../context.ts";
import { extensionOf, joinPath } from "../path.ts";

/**
 * The most bytes one download may write: 100 MiB, the largest file Lark's message-resource
 * endpoint serves. A JSON answer stays capped at 8 MiB (`MAX_JSON_BYTES`).
 */
export const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

/**
 * How long a whole download or upload may take: 10 minutes (a JSON call gets 30 s), enough for
 * 100 MiB at 170 KiB/s.
 */
export const TRANSFER_TIMEOUT_MS = 10 * 60_000;

/** The mode of a downloaded file: readable and writable by the user only. */
export const DOWNLOAD_MODE = 0o600;

/** Where a download goes. */
export interface DownloadTarget {
  /** The file to write; or, with `folder`, the folder to write into. */
  path: string;
  /**
   * `path` is a folder: the file is named by the answer's `Content-Disposition` (its last path
   * part, made safe), else by `fallbackName`.
   */
  folder?: boolean;
  /** The file's name in `folder` when the answer names none. */
  fallbackName?: string;
  /** Replace a file already at the target; default false (the download fails instead). */
  overwrite?: boolean;
}

/** A finished download. */
export interface DownloadedFile {
  /** Where the file was written. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
  /** The answer's `Content-Type`, when it gave one. */
  contentType?: string;
}

/** A download that stopped because a file is already where it would go (without `overwrite`). */
export class FileThereError extends Deno.errors.AlreadyExists {
  /**
   * @param path the file that is there
   * @param cause the file system's error
   */
  constructor(readonly path: string, cause: unknown) {
    super(`Cannot save to "${path}": a file is already there`, { cause });
    this.name = "FileThereError";
  }
}

/** Why a body could not be saved, as the caller's failure. */
export interface BodyFailures {
  /** The body is larger than the cap. */
  tooLarge(): Error;
  /** The body ended before `Content-Length` bytes (or went past them). */
  wrongLength(received: number, expected: number): Error;
}

/**
 * A file name from a `Content-Disposition` header (`filename*=UTF-8''…` preferred over
 * `filename="…"`), reduced to a safe last path part; `undefined` when there is none.
 *
 * @param header the header's value, or null
 * @example
 * ```ts
 * fileNameOf(`attachment; filename="a.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`); // "résumé.pdf"
 * fileNameOf(`attachment; filename="../../etc/passwd"`); // "passwd"
 * ```
 */
export function fileNameOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended.trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1]?.replace(/\\(.)/g, "$1") ??
    /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  return name === undefined ? undefined : safeFileName(name);
}

/**
 * Windows' device names (`CON`, `NUL`, `COM1`…), which name a device rather than a file in any
 * folder, with or without an extension and in any case.
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])\s*(\..*)?$/i;

/**
 * A name the service chose, made safe as one file name on every system: its last path part,
 * control and format characters removed, the characters Windows forbids in a name (`<>:"|?*`;
 * a colon would name a hidden stream) replaced by `_`, and the dots and spaces at its end
 * (which Windows drops) removed; `undefined` when nothing usable is left (`.`, `..`, empty). A
 * hidden name (`.bashrc`, which a download into `~/` would put in place) and a Windows device
 * name (`CON`, `nul.txt`) get a leading `_`.
 *
 * @param name the name as given
 * @example
 * ```ts
 * safeFileName("../../.bashrc"); // "_.bashrc"
 * safeFileName("CON.txt"); // "_CON.txt"
 * safeFileName("report.pdf:payload. "); // "report.pdf_payload"
 * ```
 */
export function safeFileName(name: string): string | undefined {
  const last = name.split(/[\\/]/).filter((part) => part !== "").at(-1) ?? "";
  const clean = last
    // deno-lint-ignore no-control-regex
    .replace(/[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g, "")
    .replace(/[<>:"|?*]/g, "_")
    .trim()
    .replace(/[. ]+$/, "");
  if (clean === "" || clean === "." || clean === "..") return undefined;
  return clean.startsWith(".") || WINDOWS_DEVICE.test(clean) ? `_${clean}` : clean;
}

/** File name extensions of the types an unnamed download may have. */
const EXTENSIONS: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "image/bmp": ".bmp",
  "image/tiff": ".tiff",
  "image/x-icon": ".ico",
  "image/heic": ".heic",
  "application/pdf": ".pdf",
  "text/plain": ".txt",
  "video/mp4": ".mp4",
  "audio/opus": ".opus",
};

/**
 * The file a download writes: `target.path`, or in a folder target the answer's name, else the
 * fallback name with the extension of the answer's type (an image's key names no format).
 *
 * @param target where the download goes
 * @param headers the answer's headers
 * @param os whose path rules apply: `ctx.os`
 */
export function downloadPath(target: DownloadTarget, headers: Headers, os: OsName): string {
  if (!target.folder) return target.path;
  const given = fileNameOf(headers.get("content-disposition"));
  if (given) return joinPath(os, target.path, given);
  const type = (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const name = safeFileName(target.fallbackName ?? "") ?? "download";
  return joinPath(os, target.path, extensionOf(name) ? name : name + (EXTENSIONS[type] ?? ""));
}

/**
 * A pass-through stream that counts bytes: more than `max` fails it with `tooLarge()`, and an
 * end at another count than `expected` (when known) with `wrongLength()`.
 *
 * @param expected the announced length, when known
 * @param max the cap
 * @param failures the errors to fail with
 */
export function checkedLength(
  expected: number | undefined,
  max: number,
  failures: BodyFailures,
): TransformStream<Uint8Array, Uint8Array> {
  let received = 0;
  return new TransformStream({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > max) controller.error(failures.tooLarge());
      else if (expected !== undefined && received > expected) {
        controller.error(failures.wrongLength(received, expected));
      } else controller.enqueue(chunk);
    },
    flush(controller) {
      if (expected !== undefined && received !== expected) {
        controller.error(failures.wrongLength(received, expected));
      }
    },
  });
}

/**
 * Saves a streamed answer: refuses at once a `Content-Length` over `max`, then pipes the body
 * into {@link FileSystem.writeStreamAtomic}: as it is when its length is announced (Deno moves
 * the bytes itself, and the count is checked before the file is put in place), else through a
 * counter that stops it at `max`.
 *
 * @param ctx the context (files)
 * @param body the answer's body
 * @param headers the answer's headers
 * @param target where it goes
 * @param failures the errors to fail with, `readFailure` explaining a broken body
 * @param max the cap; default {@link MAX_DOWNLOAD_BYTES}
 * @throws what `failures` makes, a {@link FileThereError} naming the file already there, or the
 *   file system's error (the folder is missing, …); either way no file is left behind
 */
export async function saveBody(
  ctx: Pick<Context, "fs" | "os">,
  body: ReadableStream<Uint8Array>,
  headers: Headers,
  target: DownloadTarget,
  failures: BodyFailures & { readFailure(cause: unknown): Error },
  max = MAX_DOWNLOAD_BYTES,
): Promise<DownloadedFile> {
  const declared = headers.get("content-length");
  const expected = declared !== null && /^\d+$/.test(declared.trim())
    ? Number(declared)
    : undefined;
  if (expected !== undefined && expected > max) {
    await body.cancel();
    throw failures.tooLarge();
  }
  const path = downloadPath(target, headers, ctx.os);
  try {
    const bytes = await ctx.fs.writeStreamAtomic(
      path,
      expected === undefined ? body.pipeThrough(checkedLength(undefined, max, failures)) : body,
      DOWNLOAD_MODE,
      {
        overwrite: target.overwrite === true,
        check(written) {
          if (expected !== undefined && written !== expected) {
            throw failures.wrongLength(written, expected);
          }
        },
      },
    );
    return { path, bytes, contentType: headers.get("content-type") ?? undefined };
  } catch (error) {
    // A body that breaks off fails its read with a TypeError (an AbortError on Ctrl-C or the
    // time limit); the file system's failures are its own errors.
    if (error instanceof TypeError || error instanceof DOMException) {
      throw failures.readFailure(error);
    }
    // In a folder, only here is the file's name known.
    if (error instanceof Deno.errors.AlreadyExists) throw new FileThereError(path, error);
    throw error;
  }
}
