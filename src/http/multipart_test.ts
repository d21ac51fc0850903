import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../../tests/support/test_context.ts";
import { openMultipart, quoteName } from "./multipart.ts";

Deno.test("openMultipart() streams fields and the file into a body any form parser reads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-multipart-" });
  try {
    const path = join(dir, "chart.bin");
    const content = new Uint8Array(200_000).map((_, i) => i % 251);
    await Deno.writeFile(path, content);
    const ctx = createTestContext();
    const body = await openMultipart(ctx, {
      fields: { file_type: "stream", file_name: 'a "quoted"\r\nname.bin' },
      file: { field: "file", path, name: 'a "quoted"\r\nname.bin', contentType: "x/bin" },
    });
    assert.match(body.contentType, /^multipart\/form-data; boundary=----hark-[0-9a-f]{32}$/);
    const bytes = new Uint8Array(await new Response(body.stream).arrayBuffer());
    assert.equal(bytes.length, body.size);
    const form = await new Response(bytes, {
      headers: { "content-type": body.contentType },
    }).formData();
    assert.equal(form.get("file_type"), "stream");
    const file = form.get("file") as File;
    assert.equal(file.name, "a %22quoted%22%0D%0Aname.bin");
    assert.equal(file.type, "x/bin");
    assert.deepEqual(new Uint8Array(await file.arrayBuffer()), content);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("quoteName() keeps a name from closing its quotes or starting a header", () => {
  assert.equal(quoteName('x"; name="evil'), "x%22; name=%22evil");
  assert.equal(quoteName("a\r\nContent-Type: evil"), "a%0D%0AContent-Type: evil");
  assert.equal(quoteName("résumé.pdf"), "résumé.pdf");
});

Deno.test("openMultipart() rejects a missing file before anything is built", async () => {
  await assert.rejects(
    openMultipart(createTestContext(), {
      fields: {},
      file: { field: "image", path: "/no/such/file.png", name: "f.png", contentType: "image/png" },
    }),
    Deno.errors.NotFound,
  );
});
