import assert from "node:assert/strict";
import { BENCHMARKS, parseBenchArgs } from "./run.ts";

Deno.test("parseBenchArgs() runs every benchmark on both targets by default", () => {
  assert.deepEqual(parseBenchArgs([]), {
    only: Object.keys(BENCHMARKS),
    targets: ["deno_run", "bundle"],
    write: true,
  });
});

Deno.test("parseBenchArgs() takes --only and --target, spaced, inline or comma separated", () => {
  assert.deepEqual(parseBenchArgs(["--only", "targets,agenda_split", "--target=bundle"]), {
    only: ["targets", "agenda_split"],
    targets: ["bundle"],
    write: true,
  });
});

Deno.test("parseBenchArgs() takes a baseline checkout and --no-write", () => {
  assert.deepEqual(parseBenchArgs(["--baseline", "/tmp/main", "--no-write"]), {
    only: Object.keys(BENCHMARKS),
    targets: ["deno_run", "bundle"],
    baseline: "/tmp/main",
    write: false,
  });
});

Deno.test("parseBenchArgs() names an unknown benchmark, target or flag", () => {
  assert.throws(() => parseBenchArgs(["--only", "nope"]), /Unknown benchmark "nope"/);
  assert.throws(() => parseBenchArgs(["--target", "binary"]), /Unknown target "binary"/);
  assert.throws(() => parseBenchArgs(["--fast"]), /Unknown flag "--fast"/);
  assert.throws(() => parseBenchArgs(["--only"]), /Missing value for --only/);
});
