import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { ValidationError } from "../../errors/mod.ts";
import { skillOf, SKILLS } from "./embedded.ts";
import { installSkills } from "./install.ts";

async function withFolder(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-skills-" });
  try {
    await test(join(dir, "skills"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("installSkills() writes each skill to <dir>/<name>/SKILL.md, then leaves it", async () => {
  await withFolder(async (dir) => {
    const ctx = createTestContext();
    const first = await installSkills(ctx, dir, { force: false, dryRun: false });
    assert.deepEqual(first.map((s) => s.action), SKILLS.map(() => "create"));
    for (const skill of SKILLS) {
      assert.equal(await Deno.readTextFile(join(dir, skill.name, "SKILL.md")), skill.text);
    }
    const again = await installSkills(ctx, dir, { force: false, dryRun: false });
    assert.deepEqual(again.map((s) => s.action), SKILLS.map(() => "unchanged"));
  });
});

Deno.test("installSkills() refuses a changed file without --force and writes nothing", async () => {
  await withFolder(async (dir) => {
    const ctx = createTestContext();
    await installSkills(ctx, dir, { force: false, dryRun: false });
    const [first, second] = SKILLS;
    const edited = join(dir, second.name, "SKILL.md");
    await Deno.writeTextFile(edited, "my notes\n");
    await Deno.remove(join(dir, first.name), { recursive: true });
    await assert.rejects(
      installSkills(ctx, dir, { force: false, dryRun: false }),
      (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(error.code, 2);
        assert.equal(error.rerunWith, "--force");
        assert.match(error.message, new RegExp(`"${edited}" differs .*nothing was written`));
        return true;
      },
    );
    assert.equal(await Deno.readTextFile(edited), "my notes\n");
    assert.equal(await ctx.fs.exists(join(dir, first.name)), false, "nothing else written");
    const forced = await installSkills(ctx, dir, { force: true, dryRun: false });
    assert.deepEqual(forced.map((s) => s.action).slice(0, 2), ["create", "replace"]);
    assert.equal(await Deno.readTextFile(edited), second.text);
  });
});

Deno.test("installSkills() with dryRun lists the plan and writes nothing", async () => {
  await withFolder(async (dir) => {
    const ctx = createTestContext();
    const plan = await installSkills(ctx, dir, { force: false, dryRun: true });
    assert.deepEqual(plan.map((s) => [s.skill, s.action]), SKILLS.map((s) => [s.name, "create"]));
    assert.equal(await ctx.fs.exists(dir), false);
  });
});

Deno.test("skillOf() reads the front matter's name and description, and refuses a file without", () => {
  const skill = skillOf("---\nname: hark-x\ndescription: Does x. Use when y.\n---\n\n# X\n");
  assert.deepEqual([skill.name, skill.description], ["hark-x", "Does x. Use when y."]);
  assert.throws(() => skillOf("# no front matter\n"), /lacks its name or description/);
});
