/**
 * `hark skills list` and `hark skills install <dir>`: what each writes, and writing it.
 *
 * @module
 */

import type { Context } from "../../context.ts";
import { ValidationError } from "../../errors/mod.ts";
import { type OutputOptions, writeData } from "../../output/output.ts";
import { joinPath } from "../../path.ts";
import type { GlobalOptions } from "../../session/global_options.ts";
import type { CommandCall, FlagValuesOf } from "../command_spec.ts";
import { type Skill, SKILLS } from "./embedded.ts";
import type { INSTALL_FLAGS } from "./skills.ts";

/** What installing one skill does to its file. */
export type InstallAction = "create" | "replace" | "unchanged" | "changed";

/** One skill's file and what installing does to it. */
export interface InstallStep {
  /** The skill's name. */
  skill: string;
  /** Its `SKILL.md` under the folder given. */
  path: string;
  /**
   * `create` (no file yet), `unchanged` (the same text), `replace` (a changed file, with
   * `--force`), `changed` (a changed file, left alone without `--force`).
   */
  action: InstallAction;
}

/**
 * Works out what installing `skills` into `dir` does to each file, reading only.
 *
 * @param ctx the context (files, OS)
 * @param dir the folder given
 * @param skills the skills
 * @param force whether changed files are replaced
 */
export async function planInstall(
  ctx: Context,
  dir: string,
  skills: readonly Skill[],
  force: boolean,
): Promise<InstallStep[]> {
  return await Promise.all(skills.map(async (skill) => {
    const path = joinPath(ctx.os, dir, skill.name, "SKILL.md");
    const info = await ctx.fs.stat(path);
    if (!info) return { skill: skill.name, path, action: "create" };
    const text = await ctx.fs.readTextFile(path);
    if (text === skill.text) return { skill: skill.name, path, action: "unchanged" };
    return { skill: skill.name, path, action: force ? "replace" : "changed" };
  }));
}

/**
 * Installs every skill: nothing is written when a changed file would be replaced without
 * `--force`; each file is written atomically (never half a file).
 *
 * @param ctx the context
 * @param dir the folder given
 * @param options `force`, and `dryRun` to only list the plan
 * @returns what was (or, with `dryRun`, would be) done to each file
 * @throws {ValidationError} naming the changed files and `--force`, before writing any
 */
export async function installSkills(
  ctx: Context,
  dir: string,
  options: { force: boolean; dryRun: boolean },
): Promise<InstallStep[]> {
  const steps = await planInstall(ctx, dir, SKILLS, options.force);
  if (options.dryRun) return steps;
  const changed = steps.filter((s) => s.action === "changed");
  if (changed.length > 0) {
    throw new ValidationError(
      `Cannot install the skills: ${changed.map((s) => `"${s.path}"`).join(", ")} ` +
        `${changed.length === 1 ? "differs" : "differ"} from this hark's (changed by hand, or ` +
        "from another version); nothing was written",
      {
        param: "--force",
        rerunWith: "--force",
        suggestion: "Keep your changes elsewhere, then run again with --force",
      },
    );
  }
  for (const step of steps) {
    if (step.action === "unchanged") continue;
    const skill = SKILLS.find((s) => s.name === step.skill);
    if (!skill) continue;
    await ctx.fs.mkdir(joinPath(ctx.os, dir, skill.name), 0o755);
    await ctx.fs.writeFileAtomic(step.path, skill.text, 0o644);
  }
  return steps;
}

/** `hark skills list`. */
export async function runSkillsList(call: CommandCall): Promise<void> {
  await writeData(
    call.ctx,
    outputOf(call.globals),
    SKILLS.map(({ name, description }) => ({ name, description })),
    [{ header: "NAME", value: "name", kind: "id" }, {
      header: "DESCRIPTION",
      value: "description",
    }],
  );
  return Promise.resolve();
}

/** `hark skills install <dir>`. */
export async function runSkillsInstall(
  call: CommandCall<FlagValuesOf<typeof INSTALL_FLAGS>>,
): Promise<void> {
  const [dir] = call.args;
  const steps = await installSkills(call.ctx, dir, {
    force: call.flags.force === true,
    dryRun: call.globals.dryRun,
  });
  await writeData(call.ctx, outputOf(call.globals), steps, [
    { header: "SKILL", value: "skill", kind: "id" },
    { header: call.globals.dryRun ? "WOULD" : "DONE", value: "action" },
    { header: "PATH", value: "path", kind: "id" },
  ]);
}

/** The output settings: the flags alone (listing skills reads no config). */
function outputOf(globals: GlobalOptions): OutputOptions {
  return {
    format: globals.format,
    color: globals.color,
    csvRaw: globals.csvRaw,
    fields: globals.fields,
  };
}
