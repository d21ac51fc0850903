/**
 * Rules of the code base that a reviewer would otherwise have to remember: business code reaches
 * the outside world only through the context, only main.ts exits, only npm: imports, the
 * sandbox stays out of the binary, `src/` holds only what ships, no product file grows past one
 * concept's length, and type assertions stay few and explained.
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { productAssertions } from "../scripts/type_assertions.ts";
import { REPO_ROOT } from "./support/hark_env.ts";

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

async function sources(folder: string): Promise<{ path: string; text: string }[]> {
  const files: { path: string; text: string }[] = [];
  for await (const path of walk(join(REPO_ROOT, folder))) {
    files.push({ path: relative(REPO_ROOT, path), text: await Deno.readTextFile(path) });
  }
  return files;
}

/**
 * The folder allowed to touch the runtime directly: the real context and its parts (file system,
 * subprocess runner, status line, collector), one file each.
 */
const RUNTIME_FOLDER = "src/runtime/";

const FORBIDDEN: [RegExp, string][] = [
  [
    /\bDeno\.(env|Command|read|write|open|remove|mkdir|stat|lstat|exit|stdin|stdout|stderr|args|pid|createHttpClient|makeTemp|rename|chmod|consoleSize|addSignalListener|serve|connect|kill|execPath|cwd|osRelease|hostname|build)\b/,
    "Deno runtime API",
  ],
  [/\bDate\.now\(/, "Date.now()"],
  [/new Date\(\)/, "new Date() without an argument"],
  [/(?<![.\w])fetch\(/, "global fetch"],
  [/\bconsole\./, "console output"],
];

Deno.test("business code reaches the outside world only through the context", async () => {
  const offences: string[] = [];
  for (const { path, text } of await sources("src")) {
    if (path.endsWith("_test.ts") || path.startsWith(RUNTIME_FOLDER)) continue;
    text.split("\n").forEach((line, i) => {
      const code = line
        .replace(/\/\*.*?\*\//g, "")
        .replace(/\/\/.*$/, "")
        .replace(/^\s*(\/\*\*?|\*).*$/, "");
      for (const [pattern, what] of FORBIDDEN) {
        if (pattern.test(code)) offences.push(`${path}:${i + 1}: ${what}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offences, []);
});

/** The most lines a product file may have (issue 20): past it, a file does more than one job. */
const MAX_FILE_LINES = 450;

/** The lines of a text, as `wc -l` counts them for a file ending in a newline. */
function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

Deno.test(`no product file in src/ is over ${MAX_FILE_LINES} lines`, async () => {
  const long = (await sources("src"))
    .filter(({ path }) => !path.endsWith("_test.ts"))
    .map(({ path, text }) => ({ path, lines: lineCount(text) }))
    .filter(({ lines }) => lines > MAX_FILE_LINES)
    .map(({ path, lines }) => `${path}: ${lines} lines`);
  assert.deepEqual(long, []);
});

/**
 * The most type assertions (`as T`, `<T>x`, `x!`; not `as const`) product code may hold (issue
 * 20): a value is typed by its declaration or checked by a guard or a typed reader, and the few
 * places the compiler cannot follow say why.
 */
const MAX_TYPE_ASSERTIONS = 30;

Deno.test(`product code holds at most ${MAX_TYPE_ASSERTIONS} type assertions, each explained`, async () => {
  const all = await productAssertions(REPO_ROOT);
  assert.ok(
    all.length <= MAX_TYPE_ASSERTIONS,
    `${all.length} type assertions (at most ${MAX_TYPE_ASSERTIONS}):\n` +
      all.map((a) => `${a.path}:${a.line}: ${a.text}`).join("\n"),
  );
  const unexplained = all.filter((a) => !a.explained).map((a) => `${a.path}:${a.line}: ${a.text}`);
  // Each says why on its line or the line above: what the compiler cannot follow.
  assert.deepEqual(unexplained, []);
});

Deno.test("only main.ts exits the process", async () => {
  const exits = (await sources("src"))
    .filter(({ text }) => /Deno\.exit\(/.test(text))
    .map(({ path }) => path);
  assert.deepEqual(exits, []);
});

/**
 * Calls whose first use in a process loads ICU's locale or collation data, measured with valgrind
 * in Deno 2.9: `localeCompare` about 80 M instructions, `toLocaleString` 112 M,
 * `Intl.DateTimeFormat` 115 M, against about 160 M for a whole `im +send`. Product code compares
 * in code-unit order and groups digits itself (`src/output/grouped_digits.ts`).
 */
const LOADS_ICU_DATA = /\.localeCompare\(|\.toLocale\w*\(|\bIntl\.\w/;

Deno.test("product code never loads ICU's locale data (localeCompare, toLocale*, Intl)", async () => {
  const code = (text: string) =>
    text.split("\n").filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line)).join("\n");
  const loading = (await sources("src"))
    .filter(({ path }) => !path.endsWith("_test.ts"))
    .filter(({ text }) => LOADS_ICU_DATA.test(code(text)))
    .map(({ path }) => path);
  assert.deepEqual(loading, []);
  assert.ok(LOADS_ICU_DATA.test('a.id.localeCompare(b.id) n.toLocaleString("en-US")'), "the check");
});

Deno.test("imports are npm:, node: or relative, never jsr: or https:", async () => {
  const bad: string[] = [];
  for (const folder of ["src", "sandbox", "tests", "scripts", "bench"]) {
    const files = await sources(folder).catch(() => []);
    for (const { path, text } of files) {
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        const specifier = match[1];
        if (/^(jsr:|https?:)/.test(specifier)) bad.push(`${path}: ${specifier}`);
      }
    }
  }
  const denoJson = await Deno.readTextFile(join(REPO_ROOT, "deno.json"));
  for (const [, specifier] of denoJson.matchAll(/"(jsr:[^"]+|https?:\/\/[^"]+\.ts)"/g)) {
    bad.push(`deno.json: ${specifier}`);
  }
  assert.deepEqual(bad, []);
});

/** The checkout's modules that `main.ts` loads, `import()` included, relative to the checkout. */
async function binaryModules(): Promise<string[]> {
  const root = pathToFileURL(join(REPO_ROOT, "/")).href;
  const modules = (await denoInfo("main.ts")).modules.map((m) => m.specifier)
    .filter((m) => m.startsWith(root)).map((m) => m.slice(root.length));
  assert.ok(modules.includes("src/cli/root.ts"), "paths are read relative to the checkout");
  return modules;
}

Deno.test("the sandbox lives beside src/, not in it", async () => {
  assert.ok((await Deno.stat(join(REPO_ROOT, "sandbox/mod.ts"))).isFile);
  const inSrc = (await sources("src")).map(({ path }) => path)
    .filter((path) => path.split("/").includes("sandbox"));
  assert.deepEqual(inSrc, []);
});

Deno.test("the sandbox and the test helpers are not part of the binary", async () => {
  const modules = await binaryModules();
  assert.deepEqual(modules.filter((m) => /^(sandbox|tests)\//.test(m)), []);
});

Deno.test("nothing in src/ but its tests imports tests/ or sandbox/", async () => {
  const offences: string[] = [];
  for (const { path, text } of await sources("src")) {
    if (path.endsWith("_test.ts")) continue;
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const target = relative(REPO_ROOT, join(REPO_ROOT, path, "..", match[1]));
      if (/^(tests|sandbox)\//.test(target)) offences.push(`${path}: ${match[1]}`);
    }
  }
  assert.deepEqual(offences, []);
});

Deno.test("src/ holds only what ships: every module but tests and mod.ts is in the binary", async () => {
  const shipped = new Set(await binaryModules());
  const unshipped = (await sources("src"))
    .map(({ path }) => path)
    .filter((path) => !path.endsWith("_test.ts") && !path.endsWith("/mod.ts"))
    .filter((path) => !shipped.has(path));
  // A module only tests use (a fake, a fixture, a rule set) belongs in tests/support/.
  assert.deepEqual(unshipped, []);
});

/** The static imports of a module (its `import … from` and `export … from`, not `import()`). */
function staticImports(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gms)]
    .map((m) => m[1]);
}

/**
 * The modules a file imports, static or through `import()`, as paths from the repository's
 * root (relative specifiers only: `npm:` and `node:` ones name no file of ours).
 */
function importsOf(path: string, text: string): { target: string; dynamic: boolean }[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*(\()?\s*)["'](\.[^"']+)["']/g)].map((m) => ({
    target: relative(REPO_ROOT, join(REPO_ROOT, path, "..", m[2])),
    dynamic: m[1] === "(",
  }));
}

/** The two front ends: the command line and the MCP server, siblings. */
const FRONT_ENDS = ["src/cli/", "src/mcp/"];

/** The folders below the front ends, which both build on. */
const BELOW_FRONT_ENDS = [
  "session",
  "api_call",
  "catalogue",
  "shortcuts",
  "auth",
  "http",
  "config",
  "keychain",
  "output",
  "errors",
  "json",
  "time",
  "runtime",
];

Deno.test("the flow goes one way: nothing below the front ends imports src/cli/ or src/mcp/", async () => {
  const offences: string[] = [];
  for (const folder of BELOW_FRONT_ENDS) {
    for (const { path, text } of await sources(`src/${folder}`)) {
      for (const { target } of importsOf(path, text)) {
        if (FRONT_ENDS.some((front) => target.startsWith(front))) {
          offences.push(`${path}: ${target}`);
        }
      }
    }
  }
  assert.deepEqual(offences, []);
});

/**
 * The one import between the front ends: `hark mcp`'s command starts the server, loading it only
 * when it runs (`import()`), so the command table never loads the MCP layer.
 */
const CLI_STARTS_MCP = {
  path: "src/cli/mcp/mcp.ts",
  target: "src/mcp/run_mcp.ts",
  dynamic: true,
};

Deno.test("the front ends are siblings: src/mcp/ imports nothing of src/cli/, src/cli/ only starts it", async () => {
  const edges: { path: string; target: string; dynamic: boolean }[] = [];
  for (const [from, to] of [["src/mcp", "src/cli/"], ["src/cli", "src/mcp/"]]) {
    for (const { path, text } of await sources(from)) {
      for (const { target, dynamic } of importsOf(path, text)) {
        if (target.startsWith(to)) edges.push({ path, target, dynamic });
      }
    }
  }
  assert.deepEqual(edges, [CLI_STARTS_MCP]);
});

Deno.test("src/context.ts imports nothing: it only declares the ports", async () => {
  const text = await Deno.readTextFile(join(REPO_ROOT, "src/context.ts"));
  assert.deepEqual(staticImports(text), []);
});

Deno.test("only src/http/ sends requests: nothing else calls ctx.fetch", async () => {
  const offences: string[] = [];
  for (const { path, text } of await sources("src")) {
    if (/^src\/(http|runtime)\//.test(path) || path.endsWith("_test.ts")) continue;
    text.split("\n").forEach((line, i) => {
      if (/\.fetch\b/.test(line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, ""))) {
        offences.push(`${path}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offences, []);
});

Deno.test("the folders of src/ import each other without a cycle", async () => {
  const { folderCycles, folderGraph } = await import("../scripts/module_graph.ts");
  const cycles = folderCycles(await folderGraph(REPO_ROOT));
  assert.deepEqual(cycles.map((c) => c.join(" → ")), []);
});

/** What `deno info --json` says about a module graph. */
interface DenoInfo {
  roots: string[];
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
  redirects: Record<string, string>;
}

/** The module graph of a file (`deno info --json`), with every `import()` too. */
async function denoInfo(entry: string): Promise<DenoInfo> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

/**
 * The modules a file loads before it runs: its static imports, followed transitively, without
 * `import()` edges and type-only imports.
 */
async function staticGraph(entry: string): Promise<Set<string>> {
  const info = await denoInfo(entry);
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const resolve = (specifier: string) => info.redirects[specifier] ?? specifier;
  const seen = new Set<string>();
  const queue = info.roots.map(resolve);
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dependency.code && !dependency.isDynamic) queue.push(resolve(dependency.code.specifier));
    }
  }
  return seen;
}

Deno.test("the MCP SDK loads only with hark mcp: main.ts's static graph has none of it", async () => {
  const sdk = (modules: Set<string>) => [...modules].filter((m) => /@modelcontextprotocol/.test(m));
  const main = await staticGraph("main.ts");
  assert.ok([...main].some((m) => m.endsWith("/src/cli/root.ts")), "the walk follows imports");
  assert.ok([...main].some((m) => m.endsWith("/src/cli/mcp/mcp.ts")), "the command is listed");
  assert.deepEqual(sdk(main), []);
  assert.notDeepEqual(sdk(await staticGraph("src/mcp/serve.ts")), [], "the check can see the SDK");
});

Deno.test("protobuf loads only with event +subscribe: main.ts's static graph has none of it", async () => {
  const codec = (modules: Set<string>) =>
    [...modules].filter((m) => /protobufjs|\/long\/|\/src\/events\//.test(m));
  const main = await staticGraph("main.ts");
  assert.ok([...main].some((m) => m.endsWith("/src/cli/event/event.ts")), "the command is listed");
  assert.deepEqual(codec(main), []);
  assert.notDeepEqual(codec(await staticGraph("src/events/frame.ts")), [], "the check sees it");
});

Deno.test("jq loads only with --jq: main.ts's static graph has none of it", async () => {
  const jq = (modules: Set<string>) =>
    [...modules].filter((m) => /jq-wasm|\/src\/output\/jq\.ts$/.test(m));
  const main = await staticGraph("main.ts");
  assert.ok([...main].some((m) => m.endsWith("/src/cli/run_cli.ts")), "the walk follows imports");
  assert.deepEqual(jq(main), []);
  assert.notDeepEqual(jq(await staticGraph("src/output/jq.ts")), [], "the check can see it");
});

Deno.test("the API catalogue loads only when a command needs it: main.ts's static graph has none of it", async () => {
  const main = await staticGraph("main.ts");
  assert.ok([...main].some((m) => m.endsWith("/src/cli/catalogue/catalogue_ref.ts")), "the handle");
  const catalogue = [...main].filter((m) =>
    /\/gen\/catalogue\/|\/src\/catalogue\/|\/src\/cli\/catalogue\/(?!catalogue_ref\.ts)/.test(m)
  );
  assert.deepEqual(catalogue, []);
  const loader = await staticGraph("src/catalogue/catalogue.ts");
  assert.ok(
    [...loader].some((m) => m.endsWith("/src/catalogue/read_catalogue.ts")),
    "the check sees it",
  );
});

Deno.test("--version and --help load no command's code: main.ts's static graph has none of it", async () => {
  const main = [...await staticGraph("main.ts")].map((m) => m.replace(/^.*?\/(src\/)/, "$1"));
  assert.ok(main.includes("src/cli/root.ts"), "the walk follows imports");
  // Each loads with the commands that use it: time parsing with a shortcut's parameters, the
  // shortcut framework with a shortcut, the API code map with a call, paging with a listing, the
  // pager, subprocesses and the WebSocket with the commands that start them. The tree itself
  // needs only its flags' constants (identities, output formats, HTTP methods, --max-pages).
  const commandCode = main.filter((m) =>
    /^src\/(time|http|session\/session|config\/(?!config\.ts))/.test(m) ||
    /^src\/(api_call\/(?!api_methods)|auth\/(?!identity))/.test(m) ||
    /^src\/shortcuts\/(?!service_entries\.ts|max_pages\.ts)/.test(m) ||
    /^src\/errors\/(?!hark_error|exit_code|shell_quote)/.test(m) ||
    /^src\/runtime\/(run_pager|run_subprocess|web_socket)\.ts$/.test(m) ||
    /^src\/cli\/(shortcut_commands|event\/subscribe|skills\/install)\.ts$/.test(m)
  );
  assert.deepEqual(commandCode, []);
});

Deno.test("ARCHITECTURE.md stays true: every path it names exists, every folder of src/ is in it", async () => {
  const text = await Deno.readTextFile(join(REPO_ROOT, "ARCHITECTURE.md"));
  const named = [...text.matchAll(/`((?:src|sandbox|tests|scripts|bench)\/[^`\s]*|main\.ts)`/g)]
    .map((m) => m[1]);
  assert.ok(named.length > 40, "the page names the files");
  const missing: string[] = [];
  for (const path of named) {
    try {
      await Deno.stat(join(REPO_ROOT, path));
    } catch {
      missing.push(path);
    }
  }
  assert.deepEqual(missing, [], "paths in ARCHITECTURE.md that do not exist");
  const folders: string[] = [];
  for await (const entry of Deno.readDir(join(REPO_ROOT, "src"))) {
    if (entry.isDirectory) folders.push(`src/${entry.name}/`);
    else if (!entry.name.endsWith("_test.ts")) folders.push(`src/${entry.name}`);
  }
  assert.deepEqual(folders.filter((f) => !named.includes(f)).sort(), [], "undescribed in it");
});
