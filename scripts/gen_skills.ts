/**
 * Writes the generated part (the command reference) of every skill in `skills/`, between its
 * markers; the prose around it is left as it is. Run it after changing a shortcut, a flag or an
 * error type: `deno task skills`.
 *
 * Usage: deno run --allow-read --allow-write --allow-env scripts/gen_skills.ts
 *
 * @module
 */

import { currentSkillFiles } from "./skills/current.ts";

if (import.meta.main) {
  for (const { path, text } of (await currentSkillFiles()).values()) {
    if (text !== await Deno.readTextFile(path)) {
      await Deno.writeTextFile(path, text);
      console.log(`wrote ${path}`);
    }
  }
}
