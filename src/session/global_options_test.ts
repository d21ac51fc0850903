import assert from "node:assert/strict";
import { type GlobalOptions, outputOptions } from "./global_options.ts";

/** Global options as with no global flag, changed by `changes`. */
function globals(changes: Partial<GlobalOptions> = {}): GlobalOptions {
  return { json: false, dryRun: false, color: true, debug: false, csvRaw: false, ...changes };
}

Deno.test("outputOptions() combines the flags with the config's preferences", () => {
  const preferences = { output_format: "json" as const, color: true };
  assert.deepEqual(outputOptions(globals({ format: "csv", color: false }), { preferences }), {
    format: "csv",
    color: false,
    preferences,
    csvRaw: false,
  });
  assert.deepEqual(outputOptions(globals(), {}), {
    format: undefined,
    color: true,
    preferences: undefined,
    csvRaw: false,
  });
  assert.equal(outputOptions(globals({ csvRaw: true }), {}).csvRaw, true);
  assert.deepEqual(outputOptions(globals({ fields: ["id"] }), {}).fields, ["id"]);
});
