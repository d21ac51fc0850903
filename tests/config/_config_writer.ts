/**
 * A helper process for the config concurrency test.
 *
 * `write <id> <count>`: makes `count` calls to `updateConfig`, each adding the key
 * `w<id>_<n>` to `$HARK_CONFIG`, then prints `done`.
 * `read <stopFile>`: reads and parses `$HARK_CONFIG` over and over until `stopFile` exists, then
 * prints `{"reads": n, "failures": [...]}`.
 *
 * @module
 */

import { createRealContext } from "../../src/runtime/real_context.ts";
import { parseConfig, resolveConfigPath, updateConfig } from "../../src/config/mod.ts";

const [mode, ...args] = Deno.args;
const ctx = createRealContext({ signal: new AbortController().signal });
const path = resolveConfigPath(ctx);

if (mode === "write") {
  const id = Number(args[0]);
  const count = Number(args[1]);
  for (let n = 0; n < count; n++) {
    await updateConfig(ctx, (config) => {
      config[`w${id}_${n}`] = { writer: id, n, padding: "x".repeat(200 + id * 37) };
    });
  }
  console.log("done");
} else if (mode === "read") {
  const stopFile = args[0];
  let reads = 0;
  const failures: string[] = [];
  while (!(await ctx.fs.exists(stopFile))) {
    try {
      parseConfig(await ctx.fs.readTextFile(path), path);
      reads++;
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  console.log(JSON.stringify({ reads, failures }));
} else {
  console.error(`Unknown mode "${mode}"`);
  Deno.exit(2);
}
