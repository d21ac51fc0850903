import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../../errors/mod.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import {
  checkMedia,
  fileTypeOf,
  imageTypeOf,
  MAX_FILE_BYTES,
  MAX_IMAGE_BYTES,
  mediaContent,
  mediaOf,
  sizeOverLimit,
  uploadRequest,
} from "./media.ts";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0];
const bytes = (text: string) => [...text].map((c) => c.charCodeAt(0));

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "hark-media-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A sparse file of `size` bytes starting with `head`: no memory, no disk, any size. */
async function sparse(path: string, head: number[], size: number) {
  const file = await Deno.open(path, { write: true, create: true });
  await file.write(new Uint8Array(head));
  await file.truncate(size);
  file.close();
}

const problem = (param: string, pattern: RegExp) => (e: unknown) =>
  e instanceof ValidationError && e.param === param && pattern.test(e.message);

Deno.test("imageTypeOf() knows the formats Lark takes by their first bytes", () => {
  assert.equal(imageTypeOf(new Uint8Array(PNG)), "image/png");
  assert.equal(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])), "image/jpeg");
  assert.equal(imageTypeOf(new Uint8Array(bytes("GIF89a"))), "image/gif");
  assert.equal(imageTypeOf(new Uint8Array(bytes("RIFF\0\0\0\0WEBP"))), "image/webp");
  assert.equal(imageTypeOf(new Uint8Array(bytes("\0\0\0\x18ftypheic"))), "image/heic");
  assert.equal(imageTypeOf(new Uint8Array(bytes("%PDF-1.4"))), undefined);
  assert.equal(imageTypeOf(new Uint8Array(bytes("<svg xmlns"))), undefined);
});

Deno.test("fileTypeOf() files documents by extension and everything else as a stream", () => {
  assert.equal(fileTypeOf("Q3.PDF"), "pdf");
  assert.equal(fileTypeOf("a.docx"), "doc");
  assert.equal(fileTypeOf("a.csv"), "xls");
  assert.equal(fileTypeOf("a.pptx"), "ppt");
  assert.equal(fileTypeOf("clip.mp4"), "stream");
  assert.equal(fileTypeOf("Makefile"), "stream");
});

Deno.test("checkMedia() accepts an image and a file within Lark's limits", async () => {
  await withDir(async (dir) => {
    const ctx = createTestContext();
    const png = join(dir, "chart.png");
    await sparse(png, PNG, MAX_IMAGE_BYTES);
    assert.deepEqual(await checkMedia(ctx, mediaOf("image", png)), {
      size: MAX_IMAGE_BYTES,
      contentType: "image/png",
    });
    const big = join(dir, "dump.bin");
    await sparse(big, [1], MAX_FILE_BYTES);
    assert.equal((await checkMedia(ctx, mediaOf("file", big))).size, MAX_FILE_BYTES);
  });
});

Deno.test("checkMedia() refuses, before sending, what Lark would refuse", async () => {
  await withDir(async (dir) => {
    const ctx = createTestContext();
    const at = (name: string) => join(dir, name);
    await sparse(at("huge.png"), PNG, MAX_IMAGE_BYTES + 1);
    await sparse(at("huge.bin"), [1], MAX_FILE_BYTES + 1);
    await Deno.writeTextFile(at("notes.txt"), "not an image");
    await Deno.writeFile(at("empty.png"), new Uint8Array());
    const cases: [string, "image" | "file", RegExp][] = [
      [
        at("huge.png"),
        "image",
        /it is 10\.000001 MiB \(10,485,761 bytes\), and Lark takes images up to 10 MiB \(10,485,760 bytes\)$/,
      ],
      [
        at("huge.bin"),
        "file",
        /it is 30\.000001 MiB \(31,457,281 bytes\), and Lark takes files up to 30 MiB \(31,457,280 bytes\)$/,
      ],
      [at("notes.txt"), "image", /not an image Lark takes/],
      [at("empty.png"), "image", /the file is empty/],
      [at("missing.pdf"), "file", /no such file/],
      [dir, "file", /it is a folder/],
    ];
    for (const [path, kind, pattern] of cases) {
      await assert.rejects(checkMedia(ctx, mediaOf(kind, path)), problem(`--${kind}`, pattern));
    }
  });
});

Deno.test("uploadRequest() builds Lark's forms; mediaContent() the message of the key", () => {
  const image = uploadRequest(mediaOf("image", "/tmp/a/chart.png"), "image/png");
  assert.equal(image.path, "/open-apis/im/v1/images");
  // Lark's image and file create docs: the tenant token alone, with im:resource.
  assert.equal(image.identity, "bot");
  assert.deepEqual(image.scopes, ["im:resource"]);
  assert.deepEqual(image.form, {
    fields: { image_type: "message" },
    file: {
      field: "image",
      path: "/tmp/a/chart.png",
      name: "chart.png",
      contentType: "image/png",
      maxBytes: MAX_IMAGE_BYTES,
      flag: "--image",
    },
  });
  const file = uploadRequest(mediaOf("file", "r/Q3 report.xlsx"), "x/y");
  assert.equal(file.path, "/open-apis/im/v1/files");
  assert.equal(file.identity, "bot");
  assert.deepEqual(file.form?.fields, { file_type: "xls", file_name: "Q3 report.xlsx" });
  assert.deepEqual(mediaContent(mediaOf("file", "a"), "file_1"), {
    msgType: "file",
    content: '{"file_key":"file_1"}',
  });
  assert.deepEqual(mediaContent(mediaOf("image", "a"), "img_1"), {
    msgType: "image",
    content: '{"image_key":"img_1"}',
  });
});

Deno.test("sizeOverLimit() shows as many decimals as tell the size from the limit, and the bytes", () => {
  // 31.5 MB as a file browser counts (10^6 bytes) is just over Lark's 30 MiB.
  assert.equal(
    sizeOverLimit(31_500_000, MAX_FILE_BYTES, "files"),
    "it is 30.04 MiB (31,500,000 bytes), and Lark takes files up to 30 MiB (31,457,280 bytes)",
  );
  assert.equal(
    sizeOverLimit(45 * 1024 * 1024, MAX_FILE_BYTES, "files"),
    "it is 45 MiB (47,185,920 bytes), and Lark takes files up to 30 MiB (31,457,280 bytes)",
  );
  assert.equal(
    sizeOverLimit(11_000_000, MAX_IMAGE_BYTES, "images"),
    "it is 10.5 MiB (11,000,000 bytes), and Lark takes images up to 10 MiB (10,485,760 bytes)",
  );
});

Deno.test({
  name: "checkMedia() refuses a device or a pipe before opening it",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withDir(async (dir) => {
      const ctx = createTestContext();
      const fifo = join(dir, "upload.fifo");
      assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
      for (const path of [fifo, "/dev/zero"]) {
        await assert.rejects(
          checkMedia(ctx, mediaOf("file", path)),
          problem("--file", /it is not a regular file \(a pipe, a device or a socket\)$/),
        );
      }
    });
  },
});
