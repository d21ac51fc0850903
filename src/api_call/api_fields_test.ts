import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { applyFields, readFields } from "./api_fields.ts";

Deno.test("readFields() keeps -f values as text and types -F values as JSON would", async () => {
  const fields = await readFields(createTestContext(), [
    { kind: "raw", text: "page_size=20" },
    { kind: "raw", text: "query=a=b" },
    { kind: "typed", text: "limit=20" },
    { kind: "typed", text: "ratio=-1.5e2" },
    { kind: "typed", text: "flag=true" },
    { kind: "typed", text: "off=false" },
    { kind: "typed", text: "gone=null" },
    { kind: "typed", text: "word=0x10" },
  ]);
  assert.deepEqual(Object.fromEntries(fields), {
    page_size: "20",
    query: "a=b",
    limit: 20,
    ratio: -150,
    flag: true,
    off: false,
    gone: null,
    word: "0x10",
  });
});

Deno.test("readFields() reads -F key=@file as the file's text, and refuses a field without a key", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "text.md");
    await Deno.writeTextFile(path, "# hello\n");
    const fields = await readFields(createTestContext(), [{
      kind: "typed",
      text: `body=@${path}`,
    }]);
    assert.equal(fields.get("body"), "# hello\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  for (const text of ["novalue", "=x"]) {
    await assert.rejects(
      readFields(createTestContext(), [{ kind: "raw", text }]),
      (e: unknown) => e instanceof ValidationError && e.param === "-f/--raw-field",
    );
  }
});

Deno.test("applyFields() puts fields in a GET's query and in a POST's body", () => {
  const fields = new Map<string, string | number | boolean | null>([
    ["page_size", 50],
    ["user_id_type", null],
    ["q", "a b"],
  ]);
  assert.deepEqual(
    applyFields({ method: "GET", path: "/open-apis/x?page_size=10&user_id_type=open_id" }, fields),
    { method: "GET", path: "/open-apis/x?page_size=50&q=a+b" },
  );
  assert.deepEqual(applyFields({ method: "POST", path: "/open-apis/x" }, fields), {
    method: "POST",
    path: "/open-apis/x",
    body: { page_size: 50, user_id_type: null, q: "a b" },
  });
  assert.throws(
    () => applyFields({ method: "POST", path: "/open-apis/x", body: {} }, fields),
    (e: unknown) => e instanceof ValidationError && e.param === "--data",
  );
});
