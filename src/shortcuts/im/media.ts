/**
 * Images and files sent with `--image` and `--file`: checked on disk before anything is sent
 * (a regular file, not empty, within Lark's limits, an image in a format Lark takes), then
 * uploaded as a multipart form streamed from disk with the app's tenant token, and sent by the
 * key Lark answers.
 *
 * Limits and formats: Lark's im-v1 image create ("JPEG, PNG, WEBP, GIF, TIFF, BMP, ICO", HEIC;
 * at most 10 MB) and file create (`file_type` opus, mp4, pdf, doc, xls, ppt or stream; at most
 * 30 MB) docs; form fields as lark-cli `shortcuts/im/helpers.go` sends them. Token and scopes: both
 * docs take `tenant_access_token` alone and any one of im:resource and im:resource:upload (lark-cli
 * `skills/lark-im/SKILL.md`: images create "bot only", im:resource; lark-cli PR #180 uploads with
 * the bot's token when the message goes as the user).
 *
 * @module
 */

import type { Context } from "../../context.ts";
import { ValidationError } from "../../errors/mod.ts";
import type { ApiRequest } from "../../http/request.ts";
import { extensionOf } from "../../path.ts";
import { groupedDigits } from "../../output/grouped_digits.ts";

const MIB = 1024 * 1024;
/** The largest image Lark takes: 10 MB. */
export const MAX_IMAGE_BYTES = 10 * MIB;
/** The largest file Lark takes: 30 MB. */
export const MAX_FILE_BYTES = 30 * MIB;

/** The scope the app needs to upload (Lark's docs: or im:resource:upload). */
export const UPLOAD_SCOPE = "im:resource";

/** Audio and video as Lark's file create takes them: `opus` and `mp4` (its file_type). */
const AV_TYPES: Partial<
  Record<Media["kind"], { fileType: string; extension: string; contentType: string }>
> = {
  audio: { fileType: "opus", extension: ".opus", contentType: "audio/opus" },
  video: { fileType: "mp4", extension: ".mp4", contentType: "video/mp4" },
};

/** A file to upload and send. */
export interface Media {
  /** `image`, `file`, `audio` (an opus file) or `video` (an mp4 file, with a cover image). */
  kind: "image" | "file" | "audio" | "video";
  /** The flag it came from: `--image`. */
  flag: string;
  /** The path as given. */
  path: string;
  /** The file's name as sent. */
  name: string;
}

/** What a checked file turned out to be. */
export interface CheckedMedia {
  /** Its size in bytes. */
  size: number;
  /** The part's `Content-Type`. */
  contentType: string;
}

/** Image formats by their first bytes. */
const IMAGE_SIGNATURES: { type: string; matches(b: Uint8Array): boolean }[] = [
  {
    type: "image/png",
    matches: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { type: "image/jpeg", matches: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  { type: "image/gif", matches: (b) => starts(b, ascii("GIF87a")) || starts(b, ascii("GIF89a")) },
  { type: "image/webp", matches: (b) => starts(b, ascii("RIFF")) && starts(b, ascii("WEBP"), 8) },
  { type: "image/bmp", matches: (b) => starts(b, ascii("BM")) },
  { type: "image/x-icon", matches: (b) => starts(b, [0, 0, 1, 0]) },
  {
    type: "image/tiff",
    matches: (b) => starts(b, [0x49, 0x49, 0x2a, 0]) || starts(b, [0x4d, 0x4d, 0, 0x2a]),
  },
  {
    type: "image/heic",
    matches: (b) =>
      starts(b, ascii("ftyp"), 4) &&
      ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].includes(
        String.fromCharCode(...b.subarray(8, 12)),
      ),
  },
];

function starts(bytes: Uint8Array, expected: number[], at = 0): boolean {
  return expected.every((b, i) => bytes[at + i] === b);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/**
 * The image type of a file's first bytes, or `undefined` for a format Lark does not take.
 *
 * @param head at least the first 12 bytes
 */
export function imageTypeOf(head: Uint8Array): string | undefined {
  return IMAGE_SIGNATURES.find((s) => s.matches(head))?.type;
}

/**
 * The `file_type` Lark files a document under, from its extension; anything else (audio and
 * video too, which Lark would only send as voice or video messages) is a plain `stream`.
 *
 * @param name the file's name
 */
export function fileTypeOf(name: string): string {
  const extension = extensionOf(name).toLowerCase();
  if (extension === ".pdf") return "pdf";
  if ([".doc", ".docx"].includes(extension)) return "doc";
  if ([".xls", ".xlsx", ".csv"].includes(extension)) return "xls";
  if ([".ppt", ".pptx"].includes(extension)) return "ppt";
  return "stream";
}

/**
 * A file's size beside a limit, in MiB with as many decimals as it takes to tell them apart,
 * and in bytes: `it is 30.04 MiB (31,500,000 bytes), and Lark takes files up to 30 MiB
 * (31,457,280 bytes)`, never "30.0 MB … up to 30.0 MB".
 *
 * @param size the file's size
 * @param limit the limit
 * @param what `images` or `files`
 */
export function sizeOverLimit(size: number, limit: number, what: string): string {
  let decimals = 0;
  const mib = (bytes: number) => (bytes / MIB).toFixed(decimals);
  while (decimals < 6 && mib(size) === mib(limit)) decimals++;
  const shown = (bytes: number) => {
    const text = mib(bytes).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
    return `${text} MiB (${groupedDigits(bytes)} bytes)`;
  };
  return `it is ${shown(size)}, and Lark takes ${what} up to ${shown(limit)}`;
}

/**
 * A file named by `--image` or `--file`.
 *
 * @param kind which flag
 * @param path the path as given
 */
export function mediaOf(kind: Media["kind"], path: string): Media {
  // The name Lark shows: the last part, whichever separator (a Windows path on any system).
  const name = path.split(/[\\/]/).filter((part) => part !== "").at(-1) ?? path;
  return { kind, flag: `--${kind}`, path, name };
}

/**
 * Checks the file on disk: it is a regular file, not empty, within Lark's limit for its kind,
 * and an image in a format Lark takes for `--image`. Reads only its first bytes.
 *
 * @param ctx the context (files)
 * @param media the file
 * @throws {ValidationError} naming the flag and saying what to do instead
 */
export async function checkMedia(ctx: Pick<Context, "fs">, media: Media): Promise<CheckedMedia> {
  const { flag, path } = media;
  const shown = JSON.stringify(path);
  const bad = (problem: string, suggestion?: string) =>
    new ValidationError(`Cannot send ${shown} with ${flag}: ${problem}`, {
      param: flag,
      suggestion,
    });
  if (path.trim() === "") throw bad("no path given", `Give the path of the ${media.kind}`);
  let opened;
  try {
    // Looked at before it is opened: opening a pipe with no writer would wait forever.
    const info = await ctx.fs.stat(path);
    if (info === undefined) throw bad("no such file");
    if (info.isDirectory) throw bad("it is a folder");
    if (!info.isFile) {
      throw bad(
        "it is not a regular file (a pipe, a device or a socket)",
        `Give the path of a file to ${flag}`,
      );
    }
    opened = await ctx.fs.openRead(path);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    if (error instanceof Deno.errors.NotFound) throw bad("no such file");
    if (error instanceof Deno.errors.IsADirectory) throw bad("it is a folder");
    if (error instanceof Deno.errors.PermissionDenied) throw bad("permission denied");
    throw bad(error instanceof Error ? error.message : String(error));
  }
  const reader = opened.stream.getReader();
  let head: Uint8Array;
  try {
    head = (await reader.read()).value ?? new Uint8Array(0);
  } finally {
    await reader.cancel();
  }
  const { size } = opened;
  if (size === 0) throw bad("the file is empty");
  if (media.kind === "image") {
    if (size > MAX_IMAGE_BYTES) {
      throw bad(
        sizeOverLimit(size, MAX_IMAGE_BYTES, "images"),
        "Make it smaller, or send it as a file with --file (up to 30 MB)",
      );
    }
    const contentType = imageTypeOf(head);
    if (!contentType) {
      throw bad(
        "it is not an image Lark takes (JPEG, PNG, WEBP, GIF, TIFF, BMP, ICO or HEIC)",
        "Convert it, or send it as a file with --file",
      );
    }
    return { size, contentType };
  }
  if (size > MAX_FILE_BYTES) {
    throw bad(
      sizeOverLimit(size, MAX_FILE_BYTES, "files"),
      "Share a link to it instead, or split it",
    );
  }
  const wanted = AV_TYPES[media.kind];
  if (wanted !== undefined) {
    if (extensionOf(media.name).toLowerCase() !== wanted.extension) {
      throw bad(
        `Lark plays ${media.kind} messages from ${wanted.extension} files only`,
        `Convert it to ${wanted.extension}, or send it as a file with --file`,
      );
    }
    return { size, contentType: wanted.contentType };
  }
  return { size, contentType: "application/octet-stream" };
}

/**
 * The upload of a file: `POST /open-apis/im/v1/images` (`image_type=message`) or
 * `POST /open-apis/im/v1/files` (`file_type`, `file_name`), with the app's tenant token whatever
 * the command acts as (Lark takes no other). Retried like a read: a second upload only leaves an
 * unused copy.
 *
 * @param media the file
 * @param contentType the part's type, when known
 */
export function uploadRequest(media: Media, contentType: string): ApiRequest {
  const image = media.kind === "image";
  return {
    method: "POST",
    path: image ? "/open-apis/im/v1/images" : "/open-apis/im/v1/files",
    form: {
      fields: image ? { image_type: "message" } : {
        file_type: AV_TYPES[media.kind]?.fileType ?? fileTypeOf(media.name),
        file_name: media.name,
      },
      file: {
        field: image ? "image" : "file",
        path: media.path,
        name: media.name,
        contentType,
        // A file that grew since it was checked is stopped at Lark's limit, never sent whole.
        maxBytes: image ? MAX_IMAGE_BYTES : MAX_FILE_BYTES,
        flag: media.flag,
      },
    },
    repeatable: true,
    identity: "bot",
    scopes: [UPLOAD_SCOPE],
  };
}

/**
 * The message content that sends an uploaded file.
 *
 * @param media the file
 * @param key the key the upload answered (`image_key` or `file_key`)
 */
export function mediaContent(
  media: Pick<Media, "kind">,
  key: string,
  cover?: string,
): { msgType: string; content: string } {
  switch (media.kind) {
    case "image":
      return { msgType: "image", content: JSON.stringify({ image_key: key }) };
    case "audio":
      return { msgType: "audio", content: JSON.stringify({ file_key: key }) };
    case "video":
      return { msgType: "media", content: JSON.stringify({ file_key: key, image_key: cover }) };
    default:
      return { msgType: "file", content: JSON.stringify({ file_key: key }) };
  }
}
