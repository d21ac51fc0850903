/**
 * `deno task hark`: brings the generated API catalogue up to date (a few files read and one hash
 * when it is current; the generator otherwise), then runs hark's `main.ts` in this process, so
 * running from source costs no second Deno.
 *
 * @module
 */

import { ensureCatalogue } from "./catalogue/ensure.ts";

try {
  await ensureCatalogue({ quiet: true });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  Deno.exit(1);
}
await import("../main.ts");
