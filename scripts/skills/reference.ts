/**
 * The generated part of each skill in `skills/`: the command reference, written from the same
 * description `hark schema` prints (shortcuts, their flags, one-of groups, examples; `hark api`
 * and `hark schema`; the API catalogue's services; the exit codes). `scripts/gen_skills.ts`
 * writes it between the markers; `tests/skills_test.ts` fails when a file's part is stale.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  CommandSchema,
  HarkSchema,
  OptionSchema,
  ShortcutSchema,
} from "../../src/cli/schema/describe.ts";

/** The repository's `skills/` folder. */
export const SKILLS_DIR: string = fileURLToPath(new URL("../../skills/", import.meta.url));

/** The line before the generated part. */
export const BEGIN_MARK = "<!-- BEGIN GENERATED: deno task skills writes this part -->";
/** The line after it. */
export const END_MARK = "<!-- END GENERATED -->";

/** A skill: its folder name, and the service whose shortcuts it covers (none: the API layer). */
export interface SkillTopic {
  /** The folder and front-matter name, such as `hark-calendar`. */
  name: string;
  /** The shortcut service it covers; absent for the API layer. */
  service?: string;
}

/** The skills, one per service and one for the API layer. */
export const SKILL_TOPICS: readonly SkillTopic[] = [
  { name: "hark-calendar", service: "calendar" },
  { name: "hark-contact", service: "contact" },
  { name: "hark-im", service: "im" },
  { name: "hark-api" },
];

/**
 * The path of a skill's `SKILL.md`.
 *
 * @param name the skill's name
 */
export function skillPath(name: string): string {
  return join(SKILLS_DIR, name, "SKILL.md");
}

/**
 * The generated part of a skill, markers excluded.
 *
 * @param topic the skill
 * @param schema the whole of `hark schema` (with the API methods' services, when read)
 * @param apiServices the names of the API catalogue's services
 */
export function renderReference(
  topic: SkillTopic,
  schema: HarkSchema,
  apiServices: readonly string[],
): string {
  const parts: string[] = ["## Command reference", ""];
  if (topic.service !== undefined) {
    const service = schema.services.find((s) => s.name === topic.service);
    if (!service) throw new Error(`No service "${topic.service}" in hark schema`);
    for (const shortcut of service.shortcuts) parts.push(...shortcutPart(shortcut, schema));
  } else {
    for (const name of ["api", "schema"]) {
      const command = schema.commands.find((c) => c.name === name);
      if (!command) throw new Error(`No command "${name}" in hark schema`);
      parts.push(...commandPart(command));
    }
    parts.push(
      "### API services",
      "",
      "Every method of these services is `hark <service> <resource> <method>`: " +
        apiServices.map((s) => `\`${s}\``).join(", ") + ".",
      "",
    );
  }
  parts.push(...globalPart(schema), ...exitCodePart(schema));
  return parts.join("\n");
}

/**
 * A skill's text with its generated part replaced.
 *
 * @param text the skill's `SKILL.md`
 * @param generated the new part ({@link renderReference})
 * @throws {Error} when the markers are missing
 */
export function spliceReference(text: string, generated: string): string {
  const begin = text.indexOf(BEGIN_MARK);
  const end = text.indexOf(END_MARK);
  if (begin < 0 || end < begin) {
    throw new Error(`The markers ${BEGIN_MARK} … ${END_MARK} are missing`);
  }
  return `${text.slice(0, begin + BEGIN_MARK.length)}\n\n${generated}\n${text.slice(end)}`;
}

function shortcutPart(shortcut: ShortcutSchema, schema: HarkSchema): string[] {
  const [first, ...others] = shortcut.identities;
  const identities = `${first} (default)${others.map((id) => `, ${id} (\`--as ${id}\`)`).join("")}`;
  const effect = shortcut.effect === "read"
    ? "reads only"
    : `${shortcut.effect === "delete" ? "deletes" : "writes"}` +
      (shortcut.idempotent ? ", safe to retry (idempotency key)" : ", not safe to retry blindly") +
      (shortcut.destructive ? ", destructive" : "");
  const lines = [
    `### \`hark ${shortcut.name}\``,
    "",
    `${shortcut.description}.`,
    "",
    `- Identities: ${identities}`,
    `- Effect: ${effect}`,
  ];
  for (const group of shortcut.one_of ?? []) {
    lines.push(`- Exactly one of: ${group.map((name) => `\`--${name}\``).join(", ")}`);
  }
  lines.push("", "| Flag | Type | Default | Description |", "| --- | --- | --- | --- |");
  for (const p of shortcut.params) {
    const type = p.allowed ? `${p.type}: ${p.allowed.join(", ")}` : p.type;
    const flag = `\`${p.flag}\`${p.required ? " (required)" : ""}`;
    lines.push(row([flag, type, p.default === undefined ? "" : `\`${p.default}\``, p.description]));
  }
  for (const o of schema.shortcut_options) {
    lines.push(row([`\`${o.flags}\``, o.type, "", o.description]));
  }
  lines.push("", "```sh", ...shortcut.examples, "```", "");
  return lines;
}

function commandPart(command: CommandSchema): string[] {
  const args = command.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
  return [
    `### \`hark ${[command.name, ...args].join(" ")}\``,
    "",
    `${command.description}.`,
    "",
    ...optionTable(command.options),
    "",
    "```sh",
    ...command.examples,
    "```",
    "",
  ];
}

function globalPart(schema: HarkSchema): string[] {
  return ["### Global flags (every command)", "", ...optionTable(schema.global_options), ""];
}

function optionTable(options: readonly OptionSchema[]): string[] {
  const lines = ["| Flag | Description |", "| --- | --- |"];
  for (const o of options) {
    const notes = [
      o.allowed ? `one of ${o.allowed.join(", ")}` : "",
      o.repeatable ? "repeatable" : "",
      o.negates ? `turns ${o.negates} off (on by default)` : "",
    ].filter((n) => n !== "");
    lines.push(row([`\`${o.flags}\``, [o.description, ...notes].join("; ")]));
  }
  return lines;
}

function exitCodePart(schema: HarkSchema): string[] {
  const lines = [
    "### Exit codes and error types",
    "",
    "| Exit | Meaning | `error.type` in the JSON envelope |",
    "| --- | --- | --- |",
  ];
  for (const e of schema.exit_codes) {
    lines.push(
      row([String(e.code), e.meaning, e.error_types.map((t) => `\`${t.type}\``).join(", ")]),
    );
  }
  lines.push("");
  return lines;
}

function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`;
}
