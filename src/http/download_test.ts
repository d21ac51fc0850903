import assert from "node:assert/strict";
import { checkedLength, downloadPath, fileNameOf, safeFileName } from "./download.ts";

Deno.test("fileNameOf() prefers filename*, unquotes filename, and keeps only a safe last part", () => {
  assert.equal(
    fileNameOf(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`),
    "résumé.pdf",
  );
  assert.equal(fileNameOf(`attachment; filename="a \\"b\\".txt"`), 'a "b".txt');
  assert.equal(fileNameOf("attachment; filename=plain.csv"), "plain.csv");
  assert.equal(fileNameOf(`attachment; filename="../../etc/passwd"`), "passwd");
  assert.equal(fileNameOf(`attachment; filename="..\\\\..\\\\boot.ini"`), "boot.ini");
  assert.equal(fileNameOf(`attachment; filename*=UTF-8''%E0%A4%A`), undefined);
  assert.equal(fileNameOf(`attachment; filename=".."`), undefined);
  assert.equal(fileNameOf("inline"), undefined);
  assert.equal(fileNameOf(null), undefined);
});

Deno.test("safeFileName() drops control and direction characters that would disguise a name", () => {
  assert.equal(safeFileName("invoice\u202etxt.exe"), "invoicetxt.exe");
  assert.equal(safeFileName("a\u0000b\nc.txt"), "abc.txt");
  assert.equal(safeFileName("   "), undefined);
});

Deno.test("downloadPath() names a file in a folder target from the answer, else the fallback", () => {
  const named = new Headers({ "content-disposition": 'attachment; filename="x.png"' });
  assert.equal(downloadPath({ path: "/d/out.png" }, named, "linux"), "/d/out.png");
  assert.equal(downloadPath({ path: "/d", folder: true }, named, "linux"), "/d/x.png");
  assert.equal(
    downloadPath({ path: "/d", folder: true, fallbackName: "img_1" }, new Headers(), "linux"),
    "/d/img_1",
  );
  assert.equal(downloadPath({ path: "/d", folder: true }, new Headers(), "linux"), "/d/download");
  assert.equal(
    downloadPath(
      { path: "/d", folder: true, fallbackName: "img_v3_1" },
      new Headers({ "content-type": "image/png" }),
      "linux",
    ),
    "/d/img_v3_1.png",
  );
  assert.equal(
    downloadPath({ path: "C:\\d", folder: true }, named, "windows"),
    "C:\\d\\x.png",
  );
  // A name with folders in it keeps its last part only, with either separator.
  assert.equal(safeFileName("../../etc/passwd"), "passwd");
  assert.equal(safeFileName("..\\..\\evil.txt"), "evil.txt");
  assert.equal(safeFileName("notes/"), "notes");
});

async function through(chunks: number[], expected: number | undefined, max: number) {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const n of chunks) controller.enqueue(new Uint8Array(n));
      controller.close();
    },
  });
  const failures = {
    tooLarge: () => new Error("too large"),
    wrongLength: (got: number, want: number) => new Error(`length ${got}/${want}`),
  };
  const bytes = await new Response(source.pipeThrough(checkedLength(expected, max, failures)))
    .arrayBuffer();
  return bytes.byteLength;
}

Deno.test("checkedLength() passes a body of the announced length, fails a short, long or huge one", async () => {
  assert.equal(await through([3, 4], 7, 100), 7);
  assert.equal(await through([3, 4], undefined, 100), 7);
  await assert.rejects(through([3], 7, 100), /length 3\/7/);
  await assert.rejects(through([5, 5], 7, 100), /length 10\/7/);
  await assert.rejects(through([60, 60], undefined, 100), /too large/);
});
