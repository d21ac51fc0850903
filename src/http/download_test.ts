import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  checkedLength,
  downloadPath,
  fileNameOf,
  FileThereError,
  safeFileName,
  saveBody,
} from "./download.ts";

Deno.test("fileNameOf() prefers filename*, unquotes filename, and keeps only a safe last part", () => {
  assert.equal(
    fileNameOf(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`),
    "résumé.pdf",
  );
  assert.equal(fileNameOf(`attachment; filename="a \\"b\\".txt"`), "a _b_.txt");
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

Deno.test("safeFileName() gives a name every system takes as written: no colon, no trailing dot", () => {
  for (
    const [given, safe] of [
      ["report.pdf:Zone.Identifier", "report.pdf_Zone.Identifier"],
      ["C:evil.exe", "C_evil.exe"],
      ["notes.txt.", "notes.txt"],
      ["notes.txt . .", "notes.txt"],
      ["what?.txt", "what_.txt"],
      ['a<b>|c*"d".txt', "a_b__c__d_.txt"],
      ["CON.", "_CON"],
      ["nul. .", "_nul"],
      ["aux .txt. ", "_aux .txt"],
      ["NUL:", "NUL_"],
    ]
  ) {
    assert.equal(safeFileName(given), safe, given);
  }
  for (const nothing of ["...", ". .", "..\u0000."]) assert.equal(safeFileName(nothing), undefined);
  assert.equal(
    fileNameOf(`attachment; filename*=UTF-8''invoice.pdf%3Ahidden%20.`),
    "invoice.pdf_hidden",
  );
});

Deno.test("safeFileName() keeps a hidden name or a Windows device name from being used as is", () => {
  for (
    const [given, safe] of [
      [".bashrc", "_.bashrc"],
      ["../../.ssh/.authorized_keys", "_.authorized_keys"],
      ["CON", "_CON"],
      ["con.txt", "_con.txt"],
      ["Nul.tar.gz", "_Nul.tar.gz"],
      ["PRN", "_PRN"],
      ["aux.pdf", "_aux.pdf"],
      ["COM1", "_COM1"],
      ["com9.log", "_com9.log"],
      ["LPT3.txt", "_LPT3.txt"],
      ["lpt¹", "_lpt¹"],
      ["CON .txt", "_CON .txt"],
    ]
  ) {
    assert.equal(safeFileName(given), safe, given);
  }
  for (const fine of ["console.log", "com10.txt", "com0", "auxiliary.pdf", "a.bashrc", "nul_"]) {
    assert.equal(safeFileName(fine), fine);
  }
  assert.equal(fileNameOf(`attachment; filename=".bashrc"`), "_.bashrc");
  const hidden = new Headers({ "content-disposition": `attachment; filename*=UTF-8''.profile` });
  assert.equal(
    downloadPath({ path: "/home/u", folder: true }, hidden, "linux"),
    "/home/u/_.profile",
  );
});

Deno.test("saveBody() into a folder names the file already there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-save-test-" });
  try {
    await Deno.writeTextFile(join(dir, "report.pdf"), "mine");
    const headers = new Headers({ "content-disposition": 'attachment; filename="report.pdf"' });
    const failures = {
      tooLarge: () => new Error("too large"),
      wrongLength: () => new Error("length"),
      readFailure: () => new Error("read"),
    };
    const body = new Response("theirs").body!;
    await assert.rejects(
      saveBody(createTestContext(), body, headers, { path: dir, folder: true }, failures),
      (error: unknown) => {
        assert.ok(error instanceof FileThereError, String(error));
        assert.ok(error instanceof Deno.errors.AlreadyExists);
        assert.equal(error.path, join(dir, "report.pdf"));
        return true;
      },
    );
    assert.equal(await Deno.readTextFile(join(dir, "report.pdf")), "mine");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
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
