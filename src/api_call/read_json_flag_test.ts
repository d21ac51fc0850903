import assert from "node:assert/strict";
import { join } from "node:path";
import { ValidationError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { readJsonFlag } from "./read_json_flag.ts";

Deno.test("readJsonFlag() reads inline JSON, @file and stdin", async () => {
  const ctx = createTestContext({ stdin: '{"from":"stdin"}' });
  assert.deepEqual(await readJsonFlag(ctx, '{"a":1}', "--data"), { a: 1 });
  assert.deepEqual(await readJsonFlag(ctx, "-", "--data"), { from: "stdin" });
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "body.json");
    await Deno.writeTextFile(file, '[1, "two"]');
    assert.deepEqual(await readJsonFlag(ctx, `@${file}`, "--params"), [1, "two"]);
    await assert.rejects(readJsonFlag(ctx, `@${join(dir, "missing.json")}`, "--data"), {
      name: "ValidationError",
      message: /Cannot read --data file ".*missing\.json": no such file/,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readJsonFlag() names the flag, line and column of a syntax error", async () => {
  const ctx = createTestContext();
  const error = await readJsonFlag(ctx, '{\n  "a": 1,\n  oops\n}', "--data").catch((e) => e);
  assert.ok(error instanceof ValidationError);
  assert.equal(error.param, "--data");
  assert.match(error.message, /^Invalid JSON in --data at line 3, column 3: /);
  await assert.rejects(readJsonFlag(ctx, "  ", "--params"), {
    message: "Invalid JSON in --params: it is empty",
  });
  await assert.rejects(readJsonFlag(ctx, '{"a":', "--params"), {
    message: /^Invalid JSON in --params at line 1, column 6/,
  });
});

Deno.test("readJsonFlag() refuses to read stdin from a terminal", async () => {
  const ctx = createTestContext({ stdinIsTerminal: true });
  await assert.rejects(readJsonFlag(ctx, "-", "--data"), { name: "ValidationError" });
});
