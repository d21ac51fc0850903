/**
 * The skills of `skills/`, built into hark (the bundle and `deno compile` carry their text), so
 * `hark skills install` needs no file beside the binary. Loaded only by `hark skills`.
 *
 * @module
 */

import api from "../../../skills/hark-api/SKILL.md" with { type: "text" };
import calendar from "../../../skills/hark-calendar/SKILL.md" with { type: "text" };
import contact from "../../../skills/hark-contact/SKILL.md" with { type: "text" };
import im from "../../../skills/hark-im/SKILL.md" with { type: "text" };

/** A skill: its name and the text of its `SKILL.md`. */
export interface Skill {
  /** The name, from its front matter (also its folder): `hark-calendar`. */
  name: string;
  /** When an agent should use it, from its front matter. */
  description: string;
  /** The whole `SKILL.md`. */
  text: string;
}

/** Every built-in skill, by name. */
export const SKILLS: readonly Skill[] = [calendar, contact, im, api].map(skillOf);

/**
 * Reads a skill's front matter (`name` and `description`, YAML scalars on one line each).
 *
 * @param text a `SKILL.md`
 * @throws {Error} when the front matter lacks either (a build mistake, caught by the tests)
 */
export function skillOf(text: string): Skill {
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? "";
  const field = (key: string) => new RegExp(`^${key}: (.+)$`, "m").exec(front)?.[1].trim();
  const name = field("name");
  const description = field("description");
  if (!name || !description) throw new Error("A SKILL.md lacks its name or description");
  return { name, description, text };
}
