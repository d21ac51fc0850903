/**
 * Which tools a server exposes: every shortcut of the registry as a tool, narrowed by
 * `--services`, `--tools`, `--read-only` and `--as`, plus `api` with `--allow-raw-api`, plus the
 * API methods `--tools` names by id, glob or preset (`method_tools.ts` picks them).
 * Tools that exist but are left out are remembered with the reason, so a call to one is
 * answered with why rather than "unknown tool".
 *
 * @module
 */

import type { Identity } from "../auth/identity.ts";
import { ValidationError } from "../errors/mod.ts";
import { identitiesOf } from "../shortcuts/definition.ts";
import type { ServiceGroup } from "../shortcuts/services.ts";
import { presetList } from "../catalogue/tool_name.ts";
import { API_TOOL_NAME, type ApiTool, apiTool } from "./api_tool.ts";
import type { MethodTool } from "./method_tool.ts";
import { type McpTool, type ShortcutTool, shortcutTool } from "./tool_schema.ts";

/** A tool the server exposes. */
export type ExposedTool =
  | { kind: "shortcut"; tool: McpTool; shortcut: ShortcutTool }
  | { kind: "api"; tool: McpTool; api: ApiTool }
  | { kind: "method"; tool: McpTool; method: MethodTool };

/** The API methods `--tools` named, as tools (from `selectMethodTools`). */
export interface MethodSelection {
  /** Their tools. */
  tools: readonly MethodTool[];
  /** The names of the tools named by their method id (not by a glob or preset). */
  explicit: ReadonlySet<string>;
}

/** What narrows the tool set (the flags of `hark mcp`). */
export interface ToolSetOptions {
  /**
   * `--read-only`: only tools that change nothing, in Lark or on this machine (and `api` with
   * GET only).
   */
  readOnly: boolean;
  /** `--tools`: only these shortcut tools (and `api`), by name; API entries are not here. */
  tools?: readonly string[];
  /** `--services`: only the tools of these services. */
  services?: readonly string[];
  /** `--as`: the identity of every call; tools that cannot act as it are left out. */
  identity?: Identity;
  /** `--allow-raw-api`: add the `api` tool. */
  allowRawApi: boolean;
  /** The zone local times are read in, for the descriptions. */
  timeZone: string;
  /** The real path of the `--files` folder, for the descriptions; without it files are off. */
  files?: string;
}

/** The tools of a server. */
export interface ToolSet {
  /** The exposed tools by name, in list order. */
  exposed: Map<string, ExposedTool>;
  /** The tools left out, by name, with the reason (a sentence naming the flag). */
  hidden: Map<string, string>;
}

/**
 * The tools to expose.
 *
 * @param groups the loaded service groups
 * @param options the flags
 * @param methods the API methods `--tools` named, if any
 * @throws {ValidationError} naming the flag for an unknown service or tool (listing the known
 *   ones and the presets), a named tool another flag leaves out, or no tool left at all
 */
export function selectTools(
  groups: readonly ServiceGroup[],
  options: ToolSetOptions,
  methods: MethodSelection = { tools: [], explicit: new Set() },
): ToolSet {
  const known = new Set(groups.map((g) => g.name));
  const unknownServices = (options.services ?? []).filter((s) => !known.has(s));
  if (unknownServices.length > 0) {
    throw new ValidationError(
      `Unknown service ${unknownServices.map((s) => `"${s}"`).join(", ")} for --services`,
      { param: "--services", suggestion: `Known services: ${[...known].join(", ")}` },
    );
  }

  const all: ExposedTool[] = groups.flatMap((g) => g.shortcuts).map((shortcut) => {
    const generated = shortcutTool(shortcut, options);
    return { kind: "shortcut", tool: generated.tool, shortcut: generated };
  });
  if (options.allowRawApi) {
    const api = apiTool(options);
    all.push({ kind: "api", tool: api.tool, api });
  }
  for (const method of methods.tools) all.push({ kind: "method", tool: method.tool, method });
  const names = all.map((t) => t.tool.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate) throw new Error(`Two tools are named "${duplicate}"`);

  const wanted = options.tools === undefined ? undefined : new Set(options.tools);
  const unknownTools = [...wanted ?? []].filter((name) => !names.includes(name));
  if (unknownTools.length > 0) {
    const rawApi = unknownTools.includes(API_TOOL_NAME) && !options.allowRawApi;
    throw new ValidationError(
      `Unknown tool ${unknownTools.map((t) => `"${t}"`).join(", ")} for --tools`,
      {
        param: "--tools",
        suggestion: (rawApi ? "The api tool needs --allow-raw-api. " : "") +
          `Known tools: ${shortcutNames(all).join(", ")}; API methods by id (docx.v1.document.` +
          `create), glob (docx.*) or preset: ${presetList()}`,
      },
    );
  }

  const exposed = new Map<string, ExposedTool>();
  const hidden = new Map<string, string>();
  for (const entry of all) {
    const reason = whyHidden(entry, options, wanted);
    if (reason === undefined) exposed.set(entry.tool.name, entry);
    else if (wanted?.has(entry.tool.name) || methods.explicit.has(entry.tool.name)) {
      throw new ValidationError(`Cannot expose ${entry.tool.name}: ${reason}`, {
        param: "--tools",
      });
    } else hidden.set(entry.tool.name, reason);
  }
  if (exposed.size === 0) {
    throw new ValidationError("Cannot start hark mcp: the flags leave no tool to expose", {
      param: options.services ? "--services" : "--tools",
      suggestion: `Known tools: ${shortcutNames(all).join(", ")}`,
    });
  }
  return { exposed, hidden };
}

function shortcutNames(all: readonly ExposedTool[]): string[] {
  return all.filter((t) => t.kind !== "method").map((t) => t.tool.name);
}

function whyHidden(
  entry: ExposedTool,
  options: ToolSetOptions,
  wanted: Set<string> | undefined,
): string | undefined {
  if (entry.kind === "api") {
    return wanted && !wanted.has(entry.tool.name) ? "it is not named by --tools" : undefined;
  }
  if (entry.kind === "method") {
    const { method } = entry.method;
    if (options.readOnly && method.http !== "GET") {
      return `hark mcp runs with --read-only and this method changes data (${method.http})`;
    }
    if (options.identity && !method.identities.includes(options.identity)) {
      return `hark mcp runs with --as ${options.identity} and this method acts as ` +
        method.identities.join(" or ");
    }
    return undefined;
  }
  const { shortcut } = entry.shortcut;
  if (options.services && !options.services.includes(shortcut.service)) {
    return `--services leaves out the ${shortcut.service} service`;
  }
  if (wanted && !wanted.has(entry.tool.name)) return "it is not named by --tools";
  if (options.readOnly && shortcut.effect !== "read") {
    return "hark mcp runs with --read-only and this tool changes data";
  }
  if (options.readOnly && entry.shortcut.writesFiles) {
    return "hark mcp runs with --read-only and this tool writes files on this machine";
  }
  if (options.identity && !identitiesOf(shortcut).includes(options.identity)) {
    return `hark mcp runs with --as ${options.identity} and this tool acts as ` +
      identitiesOf(shortcut).join(" or ");
  }
  return undefined;
}
