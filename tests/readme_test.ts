/**
 * The README's examples work, all but the quick start's main block
 * (`tests/readme_quick_start_test.ts` runs that one at the same time): see
 * `tests/support/readme_run.ts`.
 */

import { isQuickStart, runReadmeBlocks } from "./support/readme_run.ts";

Deno.test({
  name: "every hark command in the README's code blocks runs against the sandbox",
  // The README's lines are POSIX shell; Windows has none to run them as printed.
  ignore: Deno.build.os === "windows",
}, (t) => runReadmeBlocks(t, (block) => !isQuickStart(block)));
