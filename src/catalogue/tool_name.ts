/**
 * How a catalogue method is named as an MCP tool, and how `hark mcp --tools` names sets of
 * methods: method ids, globs over ids and presets. `hark schema` and `hark mcp` share it.
 *
 * The MCP specification (2025-11-25, "Tool names") allows 1 to 128 characters of ASCII letters,
 * digits, `_`, `-` and `.`; the model APIs behind most hosts accept no dot and at most 64
 * characters. A tool name is therefore the method id with its dots as underscores
 * (`docx.v1.document.create` is `docx_v1_document_create`); one longer than 64 characters loses
 * its version (`apaas_applicationRecordPermissionMember_batchCreateAuthorization`), and one still
 * longer is cut with a hash of the id after it.
 *
 * @module
 */

/** The names every MCP host accepts: letters, digits, `_` and `-`, 1 to 64 characters. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The longest tool name. */
const MAX_NAME = 64;

/**
 * The tool name of a method.
 *
 * @param id the method id, such as `docx.v1.document.create`
 * @returns the name, such as `docx_v1_document_create`, matching {@link TOOL_NAME_PATTERN}
 */
export function methodToolName(id: string): string {
  const parts = id.split(".");
  const full = parts.join("_");
  if (full.length <= MAX_NAME) return full;
  const unversioned = [parts[0], ...parts.slice(2)].join("_");
  if (unversioned.length <= MAX_NAME) return unversioned;
  const hash = fnv1a(id).toString(16).padStart(8, "0");
  return `${unversioned.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/** FNV-1a, 32 bits: a short, stable hash of a text. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The presets of `hark mcp --tools`: a name for a common set of API groups, as globs. */
export const TOOL_PRESETS: Readonly<Record<string, readonly string[]>> = {
  calendar: ["calendar.*"],
  im: ["im.*"],
  docs: ["docx.*", "drive.*", "wiki.*", "sheets.*"],
  tasks: ["task.*"],
  base: ["bitable.*", "base.*"],
};

/** The presets with what they hold, for help and errors: `docs (docx, drive, wiki, sheets)`. */
export function presetList(): string {
  return Object.entries(TOOL_PRESETS)
    .map(([name, globs]) => `${name} (${globs.map((g) => g.replace(/\.\*$/, "")).join(", ")})`)
    .join(", ");
}

/**
 * Whether a `--tools` entry names API methods rather than a shortcut's tool: a preset, a method
 * id or a glob over ids (it has a dot or a `*`).
 *
 * @param entry one name of `--tools`
 */
export function isMethodEntry(entry: string): boolean {
  return Object.hasOwn(TOOL_PRESETS, entry) || entry.includes(".") || entry.includes("*");
}

/**
 * The method ids a `--tools` entry names, among `ids`.
 *
 * @param entry a preset, a method id, or a glob over ids (`*` is any run of characters)
 * @param ids every method id of the catalogue
 * @returns the ids it names, in the order of `ids`; none for an entry that matches nothing
 */
export function idsOfEntry(entry: string, ids: readonly string[]): string[] {
  const globs = Object.hasOwn(TOOL_PRESETS, entry) ? TOOL_PRESETS[entry] : [entry];
  const patterns = globs.map((glob) =>
    new RegExp(
      `^${glob.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`,
    )
  );
  return ids.filter((id) => patterns.some((p) => p.test(id)));
}
