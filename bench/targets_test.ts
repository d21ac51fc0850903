import assert from "node:assert/strict";
import { join } from "node:path";
import { catalogueSizeNote, fileKeychainBeyondDerivation } from "./targets.ts";

Deno.test("catalogueSizeNote() weighs the catalogue in the bundle and what start-up loads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-bench-size-" });
  try {
    await Deno.writeTextFile(join(dir, "main.js"), 'import "./a.js";\nimport("./b.js");\n');
    await Deno.writeTextFile(join(dir, "a.js"), "x".repeat(1000));
    await Deno.writeTextFile(join(dir, "b.js"), "y".repeat(2_000_000));
    await Deno.mkdir(join(dir, "gen", "catalogue"), { recursive: true });
    await Deno.writeTextFile(join(dir, "gen", "catalogue", "index.json"), "z".repeat(1_048_576));
    const note = await catalogueSizeNote({ name: "bundle", describe: "", args: [], cwd: dir });
    assert.equal(
      note,
      "API catalogue: 1.00 MiB of generated files beside a bundle of 1.91 MiB of code (the " +
        "compiled binary embeds both); start-up loads 0.00 MiB of the code and none of the " +
        "catalogue",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fileKeychainBeyondDerivation() pairs each round's sends with its derivation", () => {
  // The machine slows down in the third round: each round's figures rise together.
  const file = [150, 152, 260, 151, 149];
  const env = [40, 41, 80, 40, 40];
  const derivations = [105, 106, 175, 104, 104];
  assert.equal(fileKeychainBeyondDerivation(file, env, derivations), 5);
});
