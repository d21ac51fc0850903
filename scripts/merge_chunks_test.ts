import assert from "node:assert/strict";
import { join } from "node:path";
import {
  checkImports,
  type ChunkFacts,
  chunkFacts,
  mergeChunks,
  planMerges,
  pointImports,
} from "./merge_chunks.ts";
import { denoDirEnv } from "../tests/support/hark_env.ts";

/** A chunk that imports `imports` statically and `dynamic` with import(), of `bytes` bytes. */
function chunk(bytes: number, imports: string[] = [], dynamic: string[] = []): ChunkFacts {
  return {
    bytes,
    imports,
    dynamicImports: dynamic,
    exports: new Map(),
    imported: new Map(),
    fixed: false,
  };
}

Deno.test("chunkFacts() reads a chunk's imports, exports and re-exports as the bundler writes them", () => {
  const facts = chunkFacts(
    "b.js",
    'import {\n  x,\n  y as z\n} from "./a.js";\nimport "./c.js";\n' +
      'const f = () => import("./d.js");\nvar w = 1;\nexport {\n  w,\n  z as y\n};\n' +
      'export { q } from "./e.js";\n',
  );
  assert.deepEqual(facts.imports.sort(), ["a.js", "c.js", "e.js"]);
  assert.deepEqual(facts.dynamicImports, ["d.js"]);
  assert.deepEqual(Object.fromEntries(facts.exports), {
    w: { from: "b.js", name: "w" },
    y: { from: "b.js", name: "z" },
    q: { from: "e.js", name: "q" },
  });
  assert.deepEqual(facts.imported.get("z"), { from: "a.js", name: "y" });
  assert.equal(facts.fixed, false);
  assert.equal(chunkFacts("j.js", "export default require_dist();\n").fixed, true);
});

Deno.test("planMerges() makes the entry's static imports one chunk and leaves the entry alone", () => {
  const chunks = new Map([
    ["main.js", chunk(50_000, ["a.js", "b.js"], ["cmd.js"])],
    ["a.js", chunk(40_000, ["b.js"])],
    ["b.js", chunk(90_000)],
    ["cmd.js", chunk(60_000, ["a.js"])],
  ]);
  assert.deepEqual(planMerges(chunks, "main.js"), [["a.js", "b.js"]]);
});

Deno.test("planMerges() puts a chunk into one loaded whenever it is, only when the files saved outweigh the bytes", () => {
  // small.js is loaded by x and y, big.js by x, y and z: z would carry small.js's bytes.
  const plan = (smallBytes: number) =>
    planMerges(
      new Map([
        ["main.js", chunk(1_000, [], ["x.js", "y.js", "z.js"])],
        ["x.js", chunk(200_000, ["small.js", "big.js"])],
        ["y.js", chunk(200_000, ["small.js", "big.js"])],
        ["z.js", chunk(200_000, ["big.js"])],
        ["small.js", chunk(smallBytes)],
        ["big.js", chunk(100_000)],
      ]),
      "main.js",
      10_000,
    );
  // Two entry points save a file each (2 × 10,000) against 15,000 bytes more for z.
  assert.deepEqual(plan(15_000), [["big.js", "small.js"]]);
  // Against 25,000 bytes, it does not pay.
  assert.deepEqual(plan(25_000), []);
});

Deno.test("planMerges() refuses a merge that would make chunks import each other", () => {
  // k.js → m.js → j.js, m.js and e.js never merged: k.js in j.js would import m.js, which
  // imports j.js's file.
  const fixed = (facts: ChunkFacts) => ({ ...facts, fixed: true });
  const circle = new Map([
    ["main.js", chunk(1_000, [], ["e.js", "f.js"])],
    ["e.js", fixed(chunk(100_000, ["k.js", "m.js", "j.js"]))],
    ["f.js", chunk(100_000, ["m.js", "j.js"])],
    ["k.js", chunk(100, ["m.js"])],
    ["m.js", fixed(chunk(100_000, ["j.js"]))],
    ["j.js", chunk(100_000)],
  ]);
  assert.deepEqual(planMerges(circle, "main.js", 10_000), []);
  // Without m.js in between, k.js goes in.
  circle.set("k.js", chunk(100, ["j.js"]));
  assert.deepEqual(planMerges(circle, "main.js", 10_000), [["j.js", "k.js"]]);
});

Deno.test("planMerges() keeps apart two chunks exporting different things under one name", () => {
  const exporting = (name: string, from: string) => ({
    ...chunk(100),
    exports: new Map([[name, { from, name }]]),
  });
  const clash = new Map<string, ChunkFacts>([
    ["main.js", chunk(1_000, [], ["e.js"])],
    ["e.js", chunk(100_000, ["v1.js", "v2.js"])],
    ["v1.js", exporting("v", "v1.js")],
    ["v2.js", exporting("v", "v2.js")],
  ]);
  for (const group of planMerges(clash, "main.js")) {
    assert.ok(!(group.includes("v1.js") && group.includes("v2.js")), group.join());
  }
  // A re-export of the same thing is no clash.
  clash.set("v2.js", { ...exporting("v", "v1.js"), imports: ["v1.js"] });
  assert.deepEqual(planMerges(clash, "main.js"), [["e.js", "v1.js", "v2.js"]]);
});

Deno.test("chunkFacts() never lets a chunk with a dependency's code be merged", () => {
  assert.equal(chunkFacts("a.js", "// src/a.ts\nvar a = 1;\nexport {\n  a\n};\n").fixed, false);
  const npm = "// ../../root/.cache/deno/npm/registry.npmjs.org/zod/4.1.0/index.js\n";
  assert.equal(chunkFacts("b.js", `// src/b.ts\nvar b = 1;\n${npm}var z = 2;\n`).fixed, true);
});

Deno.test("pointImports() points static, re-export and import() specifiers at the merged file", () => {
  const text = 'import { a } from "./x.js";\nimport "./y.js";\nexport { b } from "./x.js";\n' +
    'const l = () => import("./x.js");\nconst s = "./x.js";\n';
  assert.equal(
    pointImports(text, new Map([["x.js", "big.js"]])),
    'import { a } from "./big.js";\nimport "./y.js";\nexport { b } from "./big.js";\n' +
      'const l = () => import("./big.js");\nconst s = "./x.js";\n',
  );
});

Deno.test("checkImports() names an import of a gone chunk or of a name not exported", () => {
  const ok = new Map([["a.js", 'import { x } from "./b.js";\n'], [
    "b.js",
    "var x;\nexport {\n  x\n};\n",
  ]]);
  checkImports(ok);
  assert.throws(
    () =>
      checkImports(new Map([["a.js", 'import { y } from "./b.js";\n'], ["b.js", "export {};\n"]])),
    /"a.js" imports "y" from "b.js", which does not export it/,
  );
  assert.throws(
    () => checkImports(new Map([["a.js", 'const l = () => import("./c.js");\n']])),
    /"a.js" imports "c.js", which is gone/,
  );
});

Deno.test("mergeChunks() merges a real bundle's chunks into fewer files that run the same, in the same order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-merge-test-" });
  try {
    const src = join(dir, "src");
    await Deno.mkdir(src);
    // Like hark's modules, these only declare at their top level; main.ts acts.
    const files: Record<string, string> = {
      "main.ts": 'import { log, logged } from "./log.ts";\nimport { one } from "./one.ts";\n' +
        'log("main " + one());\nconst { two } = await import("./two.ts");\n' +
        'const { three } = await import("./three.ts");\nlog(String(two() + three()));\n' +
        'console.log(logged().join(","));\n',
      "log.ts": "const order: string[] = [];\n" +
        "export function log(s: string) { order.push(s); }\nexport const logged = () => order;\n",
      "one.ts": 'import { log } from "./log.ts";\n' +
        'export const one = () => { log("one"); return 1; };\n',
      "shared.ts": 'import { log } from "./log.ts";\n' +
        'export const shared = () => { log("shared"); return 10; };\n',
      "two.ts": 'import { shared } from "./shared.ts";\nexport const two = () => shared() + 2;\n',
      "three.ts":
        'import { shared } from "./shared.ts";\nexport const three = () => shared() + 3;\n',
    };
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(join(src, name), text);
    }
    const out = join(dir, "out");
    const env = { PATH: Deno.env.get("PATH") ?? "", ...denoDirEnv() };
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--no-config",
        "--platform",
        "deno",
        "--code-splitting",
        "--outdir",
        out,
        "src/main.ts",
      ],
      cwd: dir,
      env,
      clearEnv: true,
    }).output();
    assert.ok(bundled.success, new TextDecoder().decode(bundled.stderr));
    const run = async () => {
      const result = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", "--no-config", join(out, "main.js")],
        env,
        clearEnv: true,
      }).output();
      assert.ok(result.success, new TextDecoder().decode(result.stderr));
      return new TextDecoder().decode(result.stdout);
    };
    const before = await run();
    assert.equal(before, "one,main 1,shared,shared,25\n");
    const report = await mergeChunks(out, "main.js", { env });
    assert.ok(report.after < report.before, JSON.stringify(report));
    assert.equal(await run(), before);
    // The bundler's module comments are still there, to find a module's chunk by.
    const texts = await Promise.all(
      [...Deno.readDirSync(out)].map((e) => Deno.readTextFile(join(out, e.name))),
    );
    assert.ok(texts.some((t) => /\/\/ .*src\/shared\.ts/.test(t)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("planMerges() never makes a path that loads a chunk load what a chunk merged into it imports", () => {
  // Found by review: k.js (imported with j.js by b.js only) imports a dependency; merged into
  // j.js, it would make a.js, which loads j.js alone, load the dependency and run its top level.
  const fixed = (facts: ChunkFacts) => ({ ...facts, fixed: true });
  const chunks = new Map<string, ChunkFacts>([
    ["main.js", chunk(100, [], ["a.js", "b.js"])],
    ["a.js", chunk(1_000, ["j.js"])],
    ["b.js", chunk(1_000, ["j.js", "k.js"])],
    ["j.js", chunk(5_000)],
    ["k.js", chunk(2_000, ["dep.js"])],
    ["dep.js", fixed(chunk(500_000))],
  ]);
  for (const group of planMerges(chunks, "main.js")) {
    assert.ok(!(group.includes("k.js") && group.includes("j.js")), group.join());
  }
  // Without the import, k.js may go in (b.js loads both anyway; a.js carries 2,000 bytes).
  chunks.set("k.js", chunk(2_000));
  assert.ok(planMerges(chunks, "main.js").some((g) => g.includes("k.js") && g.includes("j.js")));
});
