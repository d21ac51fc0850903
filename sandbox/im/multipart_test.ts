import assert from "node:assert/strict";
import { multipartBoundary, MultipartError, parseMultipart, partText } from "./multipart.ts";

const encoder = new TextEncoder();

async function encoded(form: FormData): Promise<{ body: Uint8Array<ArrayBuffer>; type: string }> {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    body: new Uint8Array(await request.arrayBuffer()),
    type: request.headers.get("content-type")!,
  };
}

Deno.test("parseMultipart() reads the fields and files a real client encodes", async () => {
  const binary = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
  binary.set(encoder.encode("\r\n--"), 1000); // a delimiter prefix inside the data
  const form = new FormData();
  form.append("file_type", "pdf");
  form.append("file_name", "résumé.pdf");
  form.append("empty", "");
  form.append("file", new Blob([binary], { type: "application/pdf" }), "résumé.pdf");
  const { body, type } = await encoded(form);
  const parts = parseMultipart(body, multipartBoundary(type)!);
  assert.deepEqual(parts.map((p) => p.name), ["file_type", "file_name", "empty", "file"]);
  assert.equal(partText(parts[0]), "pdf");
  assert.equal(partText(parts[1]), "résumé.pdf");
  assert.equal(parts[2].data.length, 0);
  assert.equal(parts[3].filename, "résumé.pdf");
  assert.equal(parts[3].contentType, "application/pdf");
  assert.deepEqual(parts[3].data, binary);
  // Parts are views into the body, not copies.
  assert.equal(parts[3].data.buffer, body.buffer);
});

Deno.test("parseMultipart() takes a hand-written body with a quoted boundary and filename*", () => {
  const text = [
    "preamble to ignore",
    "--b 1",
    'Content-Disposition: form-data; name="image_type"',
    "",
    "message",
    "--b 1",
    "Content-Disposition: form-data; name=image; filename*=UTF-8''%E5%9B%BE.png",
    "Content-Type: image/png",
    "",
    "PNGDATA",
    "--b 1--",
    "epilogue",
  ].join("\r\n");
  const boundary = multipartBoundary('multipart/form-data; charset=utf-8; boundary="b 1"');
  assert.equal(boundary, "b 1");
  const parts = parseMultipart(encoder.encode(text), boundary!);
  assert.equal(parts.length, 2);
  assert.equal(partText(parts[0]), "message");
  assert.equal(parts[1].name, "image");
  assert.equal(parts[1].filename, "图.png");
  assert.equal(partText(parts[1]), "PNGDATA");
});

Deno.test("multipartBoundary() refuses other types and missing boundaries", () => {
  assert.equal(multipartBoundary("application/json"), undefined);
  assert.equal(multipartBoundary("multipart/form-data"), undefined);
  assert.equal(multipartBoundary("multipart/form-data; boundary="), undefined);
  assert.equal(multipartBoundary("multipart/mixed; boundary=x"), undefined);
  assert.equal(multipartBoundary("Multipart/Form-Data; BOUNDARY=x"), "x");
});

Deno.test("parseMultipart() throws MultipartError on malformed bodies", () => {
  const cases: Record<string, string> = {
    "no boundary at all": "just text",
    "no closing boundary": '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue',
    "no disposition": "--x\r\nContent-Type: text/plain\r\n\r\nv\r\n--x--",
    "no name": "--x\r\nContent-Disposition: form-data\r\n\r\nv\r\n--x--",
    "garbage after boundary": "--xjunk\r\n\r\nv\r\n--x--",
    "header without colon": "--x\r\nnot a header\r\n\r\nv\r\n--x--",
  };
  for (const [why, text] of Object.entries(cases)) {
    assert.throws(() => parseMultipart(encoder.encode(text), "x"), MultipartError, why);
  }
});
