/**
 * The API methods `hark mcp --tools` names, as tools: each entry that is a method id
 * (`docx.v1.document.create`), a glob over ids (`docx.*`) or a preset (`docs`) is matched against
 * the catalogue's index, and only the groups of the methods it names are loaded. Without such
 * an entry nothing of the catalogue is read.
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { idsOfEntry, isMethodEntry, presetList, TOOL_PRESETS } from "../catalogue/tool_name.ts";
import { ValidationError } from "../errors/mod.ts";
import { type MethodTool, methodTool } from "./method_tool.ts";
import type { MethodSelection } from "./tool_set.ts";

/** `--tools` split into shortcut tool names and API entries. */
export interface ToolEntries {
  /** The names of shortcut tools (and `api`); `undefined` when there is none. */
  shortcuts?: string[];
  /** Method ids, globs and presets. */
  methods: string[];
}

/**
 * Splits the names of `--tools`.
 *
 * @param tools the names, or `undefined` without `--tools`
 */
export function splitToolEntries(tools: readonly string[] | undefined): ToolEntries {
  if (tools === undefined) return { methods: [] };
  const methods = tools.filter(isMethodEntry);
  const shortcuts = tools.filter((name) => !isMethodEntry(name));
  // Only API entries: they come beside every shortcut tool, as without --tools.
  return {
    shortcuts: shortcuts.length > 0 || methods.length === 0 ? shortcuts : undefined,
    methods,
  };
}

/**
 * The tools of the methods the entries name, loading only their groups.
 *
 * @param catalogue the catalogue
 * @param entries method ids, globs and presets
 * @param options the identity `hark mcp --as` fixed
 * @throws {ValidationError} naming `--tools` for an entry that matches no method, listing the
 *   presets
 */
export async function selectMethodTools(
  catalogue: Catalogue,
  entries: readonly string[],
  options: { identity?: Identity },
): Promise<MethodSelection> {
  if (entries.length === 0) return { tools: [], explicit: new Set() };
  const index = await catalogue.index();
  const ids = index.services.flatMap((s) => s.resources.flatMap((r) => r.methods.map((m) => m.id)));
  const chosen = new Set<string>();
  const explicit = new Set<string>();
  for (const entry of entries) {
    const matched = idsOfEntry(entry, ids);
    if (matched.length === 0) {
      const leftOut = index.leftOut.find((l) => l.id === entry);
      throw new ValidationError(
        leftOut
          ? `Cannot expose "${entry}" for --tools: ${leftOut.reason}`
          : `Unknown API method or pattern "${entry}" for --tools: it matches no method`,
        {
          param: "--tools",
          suggestion: `Name methods by id (docx.v1.document.create), by glob (docx.*, ` +
            `task.v2.task.*) or by preset: ${presetList()}; hark schema --kind api lists the ids`,
        },
      );
    }
    for (const id of matched) chosen.add(id);
    if (!entry.includes("*") && !Object.hasOwn(TOOL_PRESETS, entry)) explicit.add(entry);
  }
  const methods = await Promise.all([...chosen].map((id) => catalogue.method(id)));
  const tools: MethodTool[] = methods.flatMap((m) => m ? [methodTool(m, options)] : []);
  return {
    tools,
    explicit: new Set(tools.filter((t) => explicit.has(t.method.id)).map((t) => t.tool.name)),
  };
}
