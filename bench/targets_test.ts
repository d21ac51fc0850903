import assert from "node:assert/strict";
import { join } from "node:path";
import { catalogueSizeNote } from "./targets.ts";

Deno.test("catalogueSizeNote() weighs the catalogue in the bundle and what start-up loads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-bench-size-" });
  try {
    await Deno.writeTextFile(join(dir, "main.js"), 'import "./a.js";\nimport("./b.js");\n');
    await Deno.writeTextFile(join(dir, "a.js"), "x".repeat(1000));
    await Deno.writeTextFile(join(dir, "b.js"), "y".repeat(2_000_000));
    const note = await catalogueSizeNote({ name: "bundle", describe: "", args: [], cwd: dir });
    assert.match(
      note,
      /^API catalogue: \d+\.\d\d MiB of generated modules in a bundle of 1\.91 MiB/,
    );
    assert.match(note, /start-up loads 0\.00 MiB, none of it$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
