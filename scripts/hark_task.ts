/**
 * `deno task hark`: brings the generated API catalogue up to date, then runs hark's `main.ts` in
 * this process, so running from source costs no second Deno. When the catalogue looks current
 * (its stamp matches a synchronous `stat` of each input: `catalogue/looks_current.ts`) nothing
 * else runs; otherwise `catalogue/ensure.ts` is loaded for the full check (the inputs' key, and
 * the generator when stale).
 *
 * @module
 */

import { catalogueLooksCurrent } from "./catalogue/looks_current.ts";

if (!catalogueLooksCurrent()) {
  try {
    const { ensureCatalogue } = await import("./catalogue/ensure.ts");
    await ensureCatalogue({ quiet: true });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
await import("../main.ts");
