/**
 * The skills of `skills/`: their generated command reference is current (`deno task skills`
 * rewrites it), each names every shortcut and flag of its service, they load as agent hosts
 * load them, and the copies built into hark are the files.
 */

import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { SKILLS } from "../src/cli/skills/embedded.ts";
import { buildRoot } from "../src/cli/root.ts";
import { buildSchema } from "../src/cli/schema/describe.ts";
import { currentSkillFiles } from "../scripts/skills/current.ts";
import { SKILL_TOPICS, skillPath, SKILLS_DIR } from "../scripts/skills/reference.ts";
import { createHarkEnv } from "./support/hark_env.ts";

Deno.test("every skill's command reference is what deno task skills writes now", async () => {
  const stale: string[] = [];
  for (const [name, { path, text }] of await currentSkillFiles()) {
    if (text !== await Deno.readTextFile(path)) stale.push(name);
  }
  assert.deepEqual(stale, [], "run deno task skills and commit the result");
});

Deno.test("each service's skill names every shortcut and every flag of it", async () => {
  const schema = await buildSchema(buildRoot());
  const missing: string[] = [];
  for (const topic of SKILL_TOPICS) {
    const text = await Deno.readTextFile(skillPath(topic.name));
    const service = schema.services.find((s) => s.name === topic.service);
    const commands = service
      ? service.shortcuts.map((s) => ({ name: s.name, flags: s.params.map((p) => p.flag) }))
      : ["api", "schema"].map((name) => ({
        name,
        flags: schema.commands.find((c) => c.name === name)!.options.map((o) => o.flags),
      }));
    for (const command of commands) {
      if (!text.includes(`hark ${command.name}`)) {
        missing.push(`${topic.name}: hark ${command.name}`);
      }
      for (const flag of command.flags) {
        if (!text.includes(flag)) missing.push(`${topic.name}: ${command.name} ${flag}`);
      }
    }
    for (const option of schema.global_options) {
      if (!text.includes(option.flags)) missing.push(`${topic.name}: global ${option.flags}`);
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("skills/ holds one SKILL.md per topic, each with a host's front matter", async () => {
  const folders: string[] = [];
  for await (const entry of Deno.readDir(SKILLS_DIR)) {
    if (entry.isDirectory) folders.push(entry.name);
  }
  assert.deepEqual(folders.sort(), SKILL_TOPICS.map((t) => t.name).sort());
  for (const skill of SKILLS) {
    assert.match(skill.name, /^[a-z0-9-]{1,64}$/);
    assert.ok(skill.description.length > 40 && skill.description.length <= 1024, skill.name);
    assert.match(skill.description, /Use when/, `${skill.name} says when to use it`);
    for (const heading of ["## When to use", "## Identity", "## Pitfalls"]) {
      assert.ok(skill.text.includes(heading), `${skill.name}: ${heading}`);
    }
  }
});

Deno.test("the skills built into hark are the files of skills/", async () => {
  assert.deepEqual(
    SKILLS.map((s) => s.name).sort(),
    SKILL_TOPICS.map((t) => t.name).sort(),
  );
  for (const skill of SKILLS) {
    const path = skillPath(skill.name);
    assert.equal(basename(dirname(path)), skill.name);
    assert.equal(skill.text, await Deno.readTextFile(path), path);
  }
});

Deno.test("hark skills install writes the skills where a host looks for them", async () => {
  const home = await createHarkEnv();
  try {
    const target = join(home.dir, ".claude", "skills");
    const run = await home.run(["skills", "install", target, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const steps: { skill: string; action: string }[] = JSON.parse(run.stdout);
    assert.deepEqual(steps.map((s) => s.action), SKILLS.map(() => "create"));
    for (const skill of SKILLS) {
      assert.equal(await Deno.readTextFile(join(target, skill.name, "SKILL.md")), skill.text);
    }
  } finally {
    await home.cleanup();
  }
});
