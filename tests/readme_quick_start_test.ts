/**
 * The README's quick start works, its main block (`tests/readme_test.ts` runs the other blocks at
 * the same time): see `tests/support/readme_run.ts`.
 */

import { isQuickStart, runReadmeBlocks } from "./support/readme_run.ts";

Deno.test({
  name: "every hark command in the README's quick start runs against the sandbox",
  // The README's lines are POSIX shell; Windows has none to run them as printed.
  ignore: Deno.build.os === "windows",
}, (t) => runReadmeBlocks(t, isQuickStart));
