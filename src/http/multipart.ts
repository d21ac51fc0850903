/**
 * A `multipart/form-data` body for uploads (RFC 7578): text fields, then one file part streamed
 * from disk, so a 30 MB file is never held in memory, its bytes counted as they go: a file that
 * grew past its limit since it was checked is stopped there. Each attempt opens the file again:
 * a stream can be sent once.
 *
 * @module
 */

import type { Context } from "../context.ts";
import { ValidationError } from "../errors/mod.ts";
import type { UploadFile, UploadForm } from "./request.ts";
import { groupedDigits } from "../output/grouped_digits.ts";

/** A multipart body ready to send. */
export interface MultipartBody {
  /** The `Content-Type` header, with the boundary. */
  contentType: string;
  /** The body's size in bytes: the parts' heads and the file, as it was when opened. */
  size: number;
  /** The body; reading it reads the file, counting its bytes against `maxBytes`. */
  stream: ReadableStream<Uint8Array>;
  /**
   * Why the body stopped before its end, when it did: the file grew past its `maxBytes` while
   * it was read (a {@link ValidationError}). The send then fails; this is the error to show, and
   * the upload is not tried again.
   */
  failure(): Error | undefined;
}

const encoder = new TextEncoder();

/**
 * A name as it may appear between the quotes of a `Content-Disposition` parameter: quotes and
 * line breaks percent-encoded, as browsers encode them (WHATWG HTML, "multipart/form-data
 * encoding algorithm"), so a file name cannot end the header or add one.
 *
 * @param name a field or file name
 */
export function quoteName(name: string): string {
  return name.replaceAll('"', "%22").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/**
 * The boundary of a body: 32 random hex digits after a prefix that file content does not
 * start lines with by chance.
 *
 * @param ctx the context (random bytes)
 */
export function newBoundary(ctx: Pick<Context, "randomBytes">): string {
  const hex = [...ctx.randomBytes(16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `----hark-${hex}`;
}

/**
 * Opens the file of `form` and builds the body around it.
 *
 * @param ctx the context (files, random bytes)
 * @param form the fields and the file
 * @throws what {@link FileSystem.openRead} throws for a missing or unreadable file
 * @example
 * ```ts
 * const body = await openMultipart(ctx, {
 *   fields: { image_type: "message" },
 *   file: { field: "image", path: "./chart.png", name: "chart.png", contentType: "image/png" },
 * });
 * await fetch(url, { method: "POST", headers: { "Content-Type": body.contentType }, body: body.stream });
 * ```
 */
export async function openMultipart(
  ctx: Pick<Context, "fs" | "randomBytes">,
  form: UploadForm,
): Promise<MultipartBody> {
  const boundary = newBoundary(ctx);
  let head = "";
  for (const [name, value] of Object.entries(form.fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quoteName(name)}"\r\n\r\n` +
      `${value}\r\n`;
  }
  const { file } = form;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${quoteName(file.field)}"; ` +
    `filename="${quoteName(file.name)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`;
  const headBytes = encoder.encode(head);
  const tailBytes = encoder.encode(`\r\n--${boundary}--\r\n`);
  const opened = await ctx.fs.openRead(file.path);
  const reader = opened.stream.getReader();
  let stage: "head" | "file" | "tail" | "done" = "head";
  let sent = 0;
  let failure: Error | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === "head") {
        stage = "file";
        controller.enqueue(headBytes);
        return;
      }
      if (stage === "file") {
        const { done, value } = await reader.read();
        if (!done) {
          sent += value.byteLength;
          if (file.maxBytes !== undefined && sent > file.maxBytes) {
            failure = grewError(file, file.maxBytes);
            await reader.cancel(failure);
            controller.error(failure);
            return;
          }
          controller.enqueue(value);
          return;
        }
        stage = "tail";
      }
      if (stage === "tail") {
        stage = "done";
        controller.enqueue(tailBytes);
        return;
      }
      controller.close();
    },
    async cancel(reason) {
      await reader.cancel(reason);
    },
  });
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    size: headBytes.length + opened.size + tailBytes.length,
    stream,
    failure: () => failure,
  };
}

/** The error of a file that grew past the most bytes sent of it while it was being sent. */
function grewError(file: UploadFile, maxBytes: number): ValidationError {
  return new ValidationError(
    `Cannot send ${JSON.stringify(file.path)}: it grew past ${groupedDigits(maxBytes)} ` +
      "bytes, the most the service takes, while it was being sent; the upload was stopped there",
    {
      param: file.flag ?? file.field,
      suggestion: "Wait until the file is complete, make sure it is within the limit, then send " +
        "it again",
    },
  );
}
