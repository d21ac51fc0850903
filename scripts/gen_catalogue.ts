/**
 * Generates hark's API catalogue from the pinned `@larksuiteoapi/lark-mcp` package (MIT): its
 * `dist/mcp-tool/tools/en/gen-tools` define every Open Platform method (id, HTTP method, path,
 * identities, zod schemas of path, query and body). The catalogue is written to `gen/catalogue/`
 * (git-ignored): one JSON file per resource of each API group (a service at one version)
 * holding its methods, an index of services, resources, command names and method ids, a
 * manifest (a fingerprint per method) and a stamp (the key `scripts/catalogue/ensure.ts`
 * compares). The repository holds this generator, never the generated text.
 *
 * It reports the methods added, removed and changed since the catalogue it replaces, so that
 * moving the pin in `deno.json` to a newer package shows what changed.
 *
 *   deno run --allow-all scripts/gen_catalogue.ts [--out <dir>]
 *
 * @module
 */

import { join } from "node:path";
import {
  CATALOGUE_FORMAT,
  CATALOGUE_HTTP_METHODS,
  type CatalogueField,
  type CatalogueIndex,
  type CatalogueMethod,
  groupOfId,
  type IndexService,
} from "../src/catalogue/format.ts";
import { CATALOGUE_DIR, catalogueKey, PACKAGE, pinnedPackage } from "./catalogue/ensure.ts";
import { methodTexts } from "./catalogue/method_text.ts";
import { commandNames, unusedLarkCliNames } from "./catalogue/naming.ts";
import {
  diffManifests,
  diffReport,
  fingerprints,
  type Generated,
  readManifest,
  REPORT_LINES,
  writeCatalogue,
} from "./catalogue/write_catalogue.ts";

export type { Generated };
import { objectFields } from "./catalogue/zod_fields.ts";

/** A method of lark-mcp as read from its generated tools. */
export interface Tool {
  /** The method id (`name`, equal to `sdkName`). */
  id: string;
  /** The HTTP method. */
  httpMethod: string;
  /** The path with `:name` parameters. */
  path: string;
  /** The description. */
  description: string;
  /** `tenant` and/or `user`; absent for the methods that issue tokens. */
  accessTokens?: string[];
  /** The zod schemas. */
  schema: { path?: unknown; params?: unknown; data?: unknown };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Reads one of lark-mcp's generated tools.
 *
 * @param value an element of `GenTools`
 * @throws {Error} naming what is missing
 */
export function readTool(value: unknown): Tool {
  if (!isRecord(value)) throw new Error("Cannot read a tool: not an object");
  const text = (key: string) => {
    const field = value[key];
    if (typeof field !== "string" || field === "") {
      throw new Error(`Cannot read tool ${JSON.stringify(value.name)}: no "${key}"`);
    }
    return field;
  };
  const schema = value.schema;
  if (!isRecord(schema)) throw new Error(`Cannot read tool "${text("name")}": no schema`);
  const tokens = value.accessTokens;
  return {
    id: text("name"),
    httpMethod: text("httpMethod").toUpperCase(),
    path: text("path"),
    description: typeof value.description === "string" ? value.description : "",
    accessTokens: Array.isArray(tokens) ? tokens.filter((t) => typeof t === "string") : undefined,
    schema: { path: schema.path, params: schema.params, data: schema.data },
  };
}

/** The identities of lark-mcp's access tokens, the user first (hark's default). */
function identitiesOf(tokens: readonly string[]): CatalogueMethod["identities"] {
  const identities: CatalogueMethod["identities"] = [];
  if (tokens.includes("user")) identities.push("user");
  if (tokens.includes("tenant")) identities.push("bot");
  return identities;
}

/** Names of the fields that make a write safe to repeat, as Lark's methods call them. */
const IDEMPOTENCY_FIELDS = ["idempotency_key", "client_token", "uuid"];

/**
 * Why a tool is left out of the catalogue, if it is.
 *
 * @param tool the tool
 */
function leftOutReason(tool: Tool): string | undefined {
  if (!tool.accessTokens || identitiesOf(tool.accessTokens).length === 0) {
    return "takes no access token (it issues tokens from the app's credentials): hark obtains " +
      "tokens itself (hark auth token)";
  }
  if (!CATALOGUE_HTTP_METHODS.some((m) => m === tool.httpMethod)) {
    return `HTTP method ${tool.httpMethod} is not one hark sends`;
  }
  if (!tool.path.startsWith("/open-apis/") || groupOfId(tool.id) === undefined) {
    return `path "${tool.path}" or id is not an Open Platform method's`;
  }
  return undefined;
}

/**
 * The catalogue of lark-mcp's tools.
 *
 * @param tools the tools as read
 * @param source the package and version, `@larksuiteoapi/lark-mcp@0.5.1`
 * @param warn told about schemas read loosely
 * @throws {Error} for a naming clash or a schema that is not an object
 */
export function buildCatalogue(
  tools: readonly Tool[],
  source: string,
  warn: (message: string) => void = () => {},
): Generated {
  const leftOut: CatalogueIndex["leftOut"] = [];
  const kept: Tool[] = [];
  for (const tool of [...tools].sort((a, b) => a.id.localeCompare(b.id))) {
    const reason = leftOutReason(tool);
    if (reason) leftOut.push({ id: tool.id, reason });
    else kept.push(tool);
  }
  const names = commandNames(kept.map((t) => t.id));
  for (const key of unusedLarkCliNames(kept.map((t) => t.id))) {
    warn(`lark-cli's name of ${key} matches no resource: update LARK_CLI_RESOURCES`);
  }
  const methods = kept.map((tool) => methodOf(tool, names.get(tool.id)!.command, warn));
  const titles = addTexts(methods, kept);
  const groups = new Map<string, CatalogueMethod[]>();
  for (const method of methods) {
    const group = groupOfId(method.id)!;
    groups.set(group, [...(groups.get(group) ?? []), method]);
  }
  return {
    index: indexOf(methods, names, titles, source, leftOut),
    groups: [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([group, list]) => ({
      format: CATALOGUE_FORMAT,
      group,
      methods: list,
    })),
  };
}

/** A method without its texts (filled by {@link addTexts}). */
function methodOf(
  tool: Tool,
  command: [string, string, string],
  warn: (message: string) => void,
): CatalogueMethod {
  const note = (message: string) => warn(`${tool.id}: ${message}`);
  const order = [...tool.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const declared = objectFields(tool.schema.path, note) ?? [];
  // A path parameter is always needed, whatever the schema says.
  const pathParams = order.map((name): CatalogueField => ({
    name,
    type: "string",
    required: true,
    description: declared.find((f) => f.name === name)?.description ?? "",
  }));
  for (const field of declared) {
    if (!order.includes(field.name)) note(`path parameter "${field.name}" is not in the path`);
  }
  const query = objectFields(tool.schema.params, note) ?? [];
  const body = objectFields(tool.schema.data, note);
  const method: CatalogueMethod = {
    id: tool.id,
    command,
    http: CATALOGUE_HTTP_METHODS.find((m) => m === tool.httpMethod) ?? "POST",
    path: tool.path,
    identities: identitiesOf(tool.accessTokens ?? []),
    summary: "",
    description: "",
    pathParams,
    query,
  };
  if (body !== undefined) method.body = body;
  if (query.some((f) => f.name === "page_token")) method.paging = "query";
  else if (body?.some((f) => f.name === "page_token")) method.paging = "body";
  for (const name of IDEMPOTENCY_FIELDS) {
    const place = query.some((f) => f.name === name && f.type === "string")
      ? "query"
      : body?.some((f) => f.name === name && f.type === "string")
      ? "body"
      : undefined;
    if (place && method.http !== "GET") {
      method.idempotencyKey = { place, name };
      break;
    }
  }
  return method;
}

/**
 * Fills the summaries and descriptions, resource by resource.
 *
 * @returns the resources' titles, by `<service> <resource>`
 */
function addTexts(methods: CatalogueMethod[], tools: readonly Tool[]): Map<string, string> {
  const titles = new Map<string, string>();
  const byResource = new Map<string, number[]>();
  methods.forEach((m, i) => {
    const key = `${m.command[0]} ${m.command[1]}`;
    byResource.set(key, [...(byResource.get(key) ?? []), i]);
  });
  for (const indices of byResource.values()) {
    const [service, resource] = methods[indices[0]].command;
    const texts = methodTexts(resource, indices.map((i) => tools[i].description));
    titles.set(`${service} ${resource}`, texts.title);
    indices.forEach((i, n) => {
      methods[i].summary = texts.methods[n].summary;
      methods[i].description = texts.methods[n].description;
    });
  }
  return titles;
}

/** The index: services, resources, method names and ids. */
function indexOf(
  methods: readonly CatalogueMethod[],
  names: ReturnType<typeof commandNames>,
  titles: ReadonlyMap<string, string>,
  source: string,
  leftOut: CatalogueIndex["leftOut"],
): CatalogueIndex {
  const services = new Map<string, IndexService>();
  for (const method of methods) {
    const [serviceName, resourceName, methodName] = method.command;
    const service = services.get(serviceName) ??
      { name: serviceName, title: "", groups: [], resources: [] };
    services.set(serviceName, service);
    const group = groupOfId(method.id)!;
    if (!service.groups.includes(group)) service.groups.push(group);
    let resource = service.resources.find((r) => r.name === resourceName);
    if (!resource) {
      resource = {
        name: resourceName,
        aliases: names.get(method.id)!.resourceAliases,
        title: titles.get(`${serviceName} ${resourceName}`) ?? resourceName,
        methods: [],
      };
      service.resources.push(resource);
    }
    resource.methods.push({ name: methodName, id: method.id });
  }
  for (const service of services.values()) {
    service.groups.sort((a, b) => versionOf(a) - versionOf(b));
    service.resources.sort((a, b) => a.name.localeCompare(b.name));
    for (const resource of service.resources) {
      resource.methods.sort((a, b) => a.name.localeCompare(b.name));
    }
    const count = service.resources.reduce((n, r) => n + r.methods.length, 0);
    service.title =
      `${count} API ${count === 1 ? "method" : "methods"} in ${service.resources.length} ` +
      `${service.resources.length === 1 ? "resource" : "resources"} (${
        service.groups.map((g) => g.split("_").at(-1)).join(", ")
      })`;
  }
  return {
    format: CATALOGUE_FORMAT,
    source,
    services: [...services.values()].sort((a, b) => a.name.localeCompare(b.name)),
    leftOut,
  };
}

/** The version number of a group name: `calendar_v4` → 4. */
function versionOf(group: string): number {
  return Number(/_v(\d+)$/.exec(group)?.[1] ?? 0);
}

/** Loads lark-mcp's tools and package version through the pin in `deno.json`. */
async function loadPackage(): Promise<{ tools: Tool[]; version: string }> {
  const [module, pkg] = await Promise.all([
    import(`${PACKAGE}/dist/mcp-tool/tools/en/gen-tools/index.js`),
    import(`${PACKAGE}/package.json`, { with: { type: "json" } }),
  ]);
  const list: unknown = module.GenTools ?? module.default?.GenTools;
  if (!Array.isArray(list)) throw new Error(`Cannot find GenTools in ${PACKAGE}`);
  return { tools: list.map(readTool), version: String(pkg.default.version) };
}

async function main(args: string[]): Promise<number> {
  const outAt = args.indexOf("--out");
  const dir = outAt >= 0 && args[outAt + 1] ? args[outAt + 1] : CATALOGUE_DIR;
  const started = performance.now();
  const [pin, key] = await Promise.all([pinnedPackage(), catalogueKey()]);
  const { tools, version } = await loadPackage();
  const source = `${PACKAGE}@${version}`;
  if (pin !== `npm:${source}`) {
    console.error(`Cannot generate: deno.json pins ${pin}, but ${source} was loaded`);
    return 1;
  }
  const warnings: string[] = [];
  const generated = buildCatalogue(tools, source, (message) => warnings.push(message));
  const manifest = await fingerprints(generated.groups);
  const before = await readManifest(dir);
  await writeCatalogue(dir, generated, manifest, key);
  const methods = Object.keys(manifest).length;
  console.error(
    `API catalogue: ${methods} methods in ${generated.groups.length} groups from ${source} ` +
      `(${generated.index.leftOut.length} left out), written to ${dir} in ` +
      `${Math.round(performance.now() - started)} ms`,
  );
  for (const { id, reason } of generated.index.leftOut) {
    console.error(`  left out ${id}: ${reason}`);
  }
  for (const warning of warnings) console.error(`  note: ${warning}`);
  if (before) {
    const report = diffReport(diffManifests(before, manifest));
    await Deno.writeTextFile(join(dir, "changes.txt"), report + "\n");
    const lines = report.split("\n");
    console.error(lines.slice(0, REPORT_LINES + 1).join("\n"));
    if (lines.length > REPORT_LINES + 1) {
      console.error(`  … ${lines.length - 1 - REPORT_LINES} more in ${join(dir, "changes.txt")}`);
    }
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
