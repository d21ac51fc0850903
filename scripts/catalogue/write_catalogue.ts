/**
 * Writing the generated catalogue (`gen/catalogue/`): a JSON file per resource of each API group
 * (`calendar_v4.calendarEvent.json`), the index (`index.json`), a manifest of fingerprints and the stamp, all at
 * once; and the report of the methods added, removed and changed since the previous one. They are
 * data files, not modules: nothing imports them, so no runtime reads them before a command needs
 * them (Deno prepares every module a literal `import()` names before the first line runs).
 *
 * @module
 */

import { join } from "node:path";
import type { CatalogueGroup, CatalogueIndex } from "../../src/catalogue/format.ts";
import { INDEX_FILE, partsOf } from "../../src/catalogue/format.ts";
import { inputsSeen, STAMP_FILE } from "./ensure.ts";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** What the generator made: the index and the groups. */
export interface Generated {
  /** The index. */
  index: CatalogueIndex;
  /** The groups, by name. */
  groups: CatalogueGroup[];
}

/**
 * A fingerprint of each method (a short SHA-256 of its JSON), for the report of changes.
 *
 * @param groups the groups
 */
export async function fingerprints(
  groups: readonly CatalogueGroup[],
): Promise<Record<string, string>> {
  const manifest: Record<string, string> = {};
  for (const method of groups.flatMap((g) => g.methods)) {
    const digest = await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(JSON.stringify(method)),
    );
    manifest[method.id] = [...new Uint8Array(digest).slice(0, 8)].map((b) =>
      b.toString(16).padStart(2, "0")
    ).join("");
  }
  return manifest;
}

/** The methods added, removed and changed between two manifests. */
export interface CatalogueDiff {
  /** Ids only in the new one. */
  added: string[];
  /** Ids only in the old one. */
  removed: string[];
  /** Ids in both whose method differs. */
  changed: string[];
}

/**
 * Compares two manifests.
 *
 * @param before the old manifest
 * @param after the new one
 */
export function diffManifests(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): CatalogueDiff {
  const ids = (m: Readonly<Record<string, string>>) => Object.keys(m).sort();
  return {
    added: ids(after).filter((id) => !(id in before)),
    removed: ids(before).filter((id) => !(id in after)),
    changed: ids(after).filter((id) => id in before && before[id] !== after[id]),
  };
}

/**
 * The report of a diff: counts, then each id with `+`, `-` or `~`.
 *
 * @param diff the diff
 */
export function diffReport(diff: CatalogueDiff): string {
  const lines = [
    `Changes since the previous catalogue: ${diff.added.length} added, ${diff.removed.length} ` +
    `removed, ${diff.changed.length} changed`,
  ];
  for (const id of diff.added) lines.push(`  + ${id}`);
  for (const id of diff.removed) lines.push(`  - ${id}`);
  for (const id of diff.changed) lines.push(`  ~ ${id}`);
  return lines.join("\n");
}

/** How many ids of the changes the report prints (all of them go to `changes.txt`). */
export const REPORT_LINES = 40;

/**
 * Writes a generated catalogue into `dir`, replacing what is there: everything goes to a new
 * folder beside it first, which then takes its place, so a reader sees the old catalogue or the
 * new one.
 *
 * @param dir the catalogue folder
 * @param generated the catalogue
 * @param manifest its fingerprints
 * @param key the key of the stamp
 */
export async function writeCatalogue(
  dir: string,
  generated: Generated,
  manifest: Record<string, string>,
  key: string,
): Promise<void> {
  const { index, groups } = generated;
  const parent = join(dir, "..");
  await Deno.mkdir(parent, { recursive: true });
  const fresh = await Deno.makeTempDir({ dir: parent, prefix: ".catalogue-new-" });
  const write = (name: string, text: string) => Deno.writeTextFile(join(fresh, name), text);
  for (const part of groups.flatMap(partsOf)) {
    await write(`${part.group}.${part.resource}.json`, JSON.stringify(part));
  }
  await write(INDEX_FILE, JSON.stringify(index));
  await write("manifest.json", JSON.stringify(manifest, null, 1) + "\n");
  const methods = groups.reduce((n, g) => n + g.methods.length, 0);
  const stamp = { key, inputs: await inputsSeen(), source: index.source, methods };
  await write(STAMP_FILE, JSON.stringify(stamp, null, 2) + "\n");
  const old = join(parent, `.catalogue-old-${crypto.randomUUID()}`);
  await Deno.rename(dir, old).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await Deno.rename(fresh, dir);
  await Deno.remove(old, { recursive: true }).catch(() => {});
}

/** Reads the manifest of the catalogue in `dir`, if there is one. */
export async function readManifest(dir: string): Promise<Record<string, string> | undefined> {
  try {
    const value: unknown = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
    if (!isRecord(value)) return undefined;
    return Object.fromEntries(
      Object.entries(value).filter(([, v]) => typeof v === "string").map((
        [k, v],
      ) => [k, String(v)]),
    );
  } catch {
    return undefined;
  }
}
