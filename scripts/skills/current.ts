/**
 * The generated part every skill should have now: from `hark schema` of the command tree and the
 * API catalogue's index (generated first when missing).
 *
 * @module
 */

import { join } from "node:path";
import { buildRoot } from "../../src/cli/root.ts";
import { buildSchema } from "../../src/cli/schema/describe.ts";
import { ensureCatalogue } from "../catalogue/ensure.ts";
import { REPO_ROOT } from "../bundle.ts";
import { renderReference, SKILL_TOPICS, skillPath, spliceReference } from "./reference.ts";

/** The generated part of each skill, by name. */
export async function currentReferences(): Promise<Map<string, string>> {
  await ensureCatalogue({ quiet: true });
  const schema = await buildSchema(buildRoot());
  const index: { services: { name: string }[] } = JSON.parse(
    await Deno.readTextFile(join(REPO_ROOT, "gen", "catalogue", "index.json")),
  );
  const apiServices = index.services.map((s) => s.name);
  return new Map(
    SKILL_TOPICS.map((topic) => [topic.name, renderReference(topic, schema, apiServices)]),
  );
}

/**
 * Markdown as `deno fmt` writes it (the repository's format), so a generated file passes
 * `deno fmt --check` and compares equal to the one on disk.
 *
 * @param text Markdown
 * @throws {Error} when `deno fmt` fails
 */
export async function formatMarkdown(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    cwd: REPO_ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`deno fmt failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** Each skill's `SKILL.md` as it should be now: its prose, the current reference, formatted. */
export async function currentSkillFiles(): Promise<Map<string, { path: string; text: string }>> {
  const files = new Map<string, { path: string; text: string }>();
  for (const [name, generated] of await currentReferences()) {
    const path = skillPath(name);
    const text = await formatMarkdown(spliceReference(await Deno.readTextFile(path), generated));
    files.set(name, { path, text });
  }
  return files;
}
