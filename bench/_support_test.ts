import assert from "node:assert/strict";
import { join } from "node:path";
import { jsonList, localDate, shellJoin, summarize, treeFlags } from "./_support.ts";

Deno.test("summarize() gives the median, nearest-rank p90, min, max and mean", () => {
  const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
  assert.deepEqual(summarize(samples), {
    runs: 10,
    median_ms: 5.5,
    p90_ms: 9,
    min_ms: 1,
    max_ms: 10,
    mean_ms: 5.5,
  });
  assert.equal(summarize([3, 1, 2]).median_ms, 2);
});

Deno.test("summarize() refuses an empty list", () => {
  assert.throws(() => summarize([]), /no samples/);
});

Deno.test("shellJoin() quotes only what a shell would split or expand", () => {
  assert.equal(
    shellJoin(["im", "+send", "--text", "hello world", "it's", "a/b.ts"]),
    `im +send --text 'hello world' 'it'\\''s' a/b.ts`,
  );
});

Deno.test("localDate() formats a local date as YYYY-MM-DD", () => {
  assert.match(localDate(0), /^\d{4}-\d{2}-\d{2}$/);
  const today = new Date(`${localDate(0)}T12:00:00`);
  const later = new Date(`${localDate(364)}T12:00:00`);
  assert.equal(Math.round((later.getTime() - today.getTime()) / 86_400_000), 364);
});

Deno.test("jsonList() reads a bare array or one under data", () => {
  assert.deepEqual(jsonList("[1,2]"), [1, 2]);
  assert.deepEqual(jsonList('{"data":[3]}'), [3]);
  assert.throws(() => jsonList('{"data":{}}'), /Cannot read the output as a list/);
});

Deno.test("treeFlags() reads another tree's run flags, old name or new", async () => {
  const root = await Deno.makeTempDir({ prefix: "hark-tree-flags-" });
  try {
    await Deno.mkdir(join(root, "scripts"));
    const file = join(root, "scripts", "permissions.ts");
    await Deno.writeTextFile(file, 'export const HARK_PERMISSIONS = ["--allow-net"];\n');
    assert.deepEqual(await treeFlags(root), ["--allow-net"]);
    const other = await Deno.makeTempDir({ prefix: "hark-tree-flags-" });
    await Deno.mkdir(join(other, "scripts"));
    await Deno.writeTextFile(
      join(other, "scripts", "permissions.ts"),
      'export const HARK_RUN_FLAGS = ["--allow-env", "--v8-flags=--expose-gc"];\n',
    );
    assert.deepEqual(await treeFlags(other), ["--allow-env", "--v8-flags=--expose-gc"]);
    await Deno.remove(other, { recursive: true });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
