import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../../tests/support/test_context.ts";
import {
  announcedLength,
  downloadPath,
  fileNameOf,
  FileThereError,
  lengthLimit,
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
      longerThanAnnounced: () => new Error("longer"),
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

Deno.test("lengthLimit() admits a count up to the announced length and the cap, no further", () => {
  const failures = {
    tooLarge: () => new Error("too large"),
    longerThanAnnounced: (want: number) => new Error(`longer than ${want}`),
  };
  const announced = lengthLimit(7, 100, failures);
  announced(3);
  announced(7);
  assert.throws(() => announced(8), /longer than 7/);
  const unannounced = lengthLimit(undefined, 100, failures);
  unannounced(100);
  assert.throws(() => unannounced(101), /too large/);
});

Deno.test("announcedLength() reads Content-Length, but not of a compressed body", () => {
  assert.equal(announcedLength(new Headers({ "content-length": "42" })), 42);
  assert.equal(announcedLength(new Headers({ "content-length": " 7 " })), 7);
  assert.equal(announcedLength(new Headers({ "content-length": "1e3" })), undefined);
  assert.equal(announcedLength(new Headers()), undefined);
  assert.equal(
    announcedLength(new Headers({ "content-length": "42", "content-encoding": "identity" })),
    42,
  );
  // The header counts the compressed bytes; the body is read decompressed.
  for (const encoding of ["gzip", "br", "deflate", "GZIP"]) {
    const headers = new Headers({ "content-length": "42", "content-encoding": encoding });
    assert.equal(announcedLength(headers), undefined, encoding);
  }
});

/** A body of `chunks` chunks of `size` bytes that counts how many were pulled. */
function countedBody(chunks: number, size: number) {
  const pulled = { chunks: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.chunks >= chunks) return controller.close();
      pulled.chunks++;
      controller.enqueue(new Uint8Array(size));
    },
  });
  return { body, pulled };
}

const saveFailures = {
  tooLarge: () => new Error("too large"),
  longerThanAnnounced: (want: number) => new Error(`longer than ${want}`),
  wrongLength: (got: number, want: number) => new Error(`length ${got}/${want}`),
  readFailure: () => new Error("read"),
};

Deno.test("saveBody() counts the bytes it writes: a small Content-Length over a longer body stops it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-save-test-" });
  try {
    const { body, pulled } = countedBody(1000, 1024);
    const headers = new Headers({ "content-length": "10" });
    await assert.rejects(
      saveBody(createTestContext(), body, headers, { path: join(dir, "a.bin") }, saveFailures),
      /longer than 10/,
    );
    assert.ok(pulled.chunks < 10, `read ${pulled.chunks} chunks of a 10-byte answer`);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "no file, no temporary file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveBody() stops a compressed body at the cap, whatever its Content-Length", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-save-test-" });
  try {
    const { body, pulled } = countedBody(1000, 1024);
    const headers = new Headers({ "content-length": "300", "content-encoding": "gzip" });
    await assert.rejects(
      saveBody(
        createTestContext(),
        body,
        headers,
        { path: join(dir, "a.bin") },
        saveFailures,
        64 * 1024,
      ),
      /too large/,
    );
    assert.ok(pulled.chunks < 80, `read ${pulled.chunks} chunks past a 64-chunk cap`);
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveBody() saves a compressed body whose decoded size differs from its Content-Length", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-save-test-" });
  try {
    const { body } = countedBody(5, 1000);
    const headers = new Headers({ "content-length": "120", "content-encoding": "gzip" });
    const path = join(dir, "a.bin");
    const saved = await saveBody(createTestContext(), body, headers, { path }, saveFailures);
    assert.equal(saved.bytes, 5000);
    assert.equal((await Deno.stat(path)).size, 5000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
