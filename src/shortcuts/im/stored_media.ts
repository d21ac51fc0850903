/**
 * The message bodies that name what Lark already holds or needs two uploads: image and file
 * keys (`--image-key`, `--file-key`), voice and video (`--audio`, `--video` with `--cover`, each
 * a path to upload or a key), and the people a message mentions (`--mention`).
 *
 * @module
 */

import { ValidationError } from "../../errors/mod.ts";
import { checkId, type IdKind } from "../contact/ids.ts";
import { type Media, mediaContent, mediaOf } from "./media.ts";
import type { Outgoing } from "./outgoing.ts";

/** An image key Lark answered an upload with: `img_…`. */
export const IMAGE_KEY: IdKind = { noun: "image key", prefixes: ["img_"] };
/** A file key Lark answered an upload with: `file_…`. */
export const FILE_KEY: IdKind = { noun: "file key", prefixes: ["file_"] };
/** A person mentioned: an open id, as Lark's `<at user_id>` takes it. */
export const MENTION: IdKind = {
  noun: "open id",
  prefixes: ["ou_"],
  find: "hark contact +search-user --query <name>",
};
/** The most people one message mentions. */
export const MAX_MENTIONS = 50;

/**
 * `--audio` or `--video` (with `--cover`): a key sends what was uploaded before, a path is
 * uploaded first. A value starting `file_` (`img_` for the cover) is a key: give `./file_x` for
 * a file so named.
 */
export function avOf(kind: "audio" | "video", value: string, cover: string | undefined): Outgoing {
  const flag = `--${kind}`;
  const isKey = (text: string, prefix: string) => text.trim().startsWith(prefix);
  let coverOf: Media | string | undefined;
  if (kind === "video") {
    if (cover === undefined || cover.trim() === "") {
      throw new ValidationError("Missing --cover: a video message needs a cover image", {
        param: "--cover",
        suggestion: "Give --cover with an image file or an image key (img_…)",
      });
    }
    coverOf = isKey(cover, "img_")
      ? checkId(cover, "--cover", IMAGE_KEY)
      : { ...mediaOf("image", cover), flag: "--cover" };
  }
  if (!isKey(value, "file_")) return { media: mediaOf(kind, value), cover: coverOf };
  const key = checkId(value, flag, FILE_KEY);
  if (typeof coverOf === "object") {
    throw new ValidationError(
      "Invalid value for --cover: with --video as a key, give the cover as a key (img_…) too",
      { param: "--cover" },
    );
  }
  return mediaContent({ kind }, key, coverOf);
}
