/**
 * Builds what `deno task compile` compiles (the code-split bundle of `scripts/bundle.ts`) and
 * runs it with exactly the permissions the binary is compiled with, so a missing permission or
 * a bundling problem fails here rather than in a user's binary. Also checks what start-up loads:
 * the entry's static imports reach no `node:` module.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import {
  BUNDLE_ENTRY,
  bundleHark,
  chunkImports,
  chunkNames,
  deferNodeModule,
  staticGraph,
} from "../scripts/bundle.ts";
import { compileArgs, TARGETS } from "../scripts/compile.ts";
import { mcpScript } from "./support/mcp_script.ts";
import { startSandbox } from "../sandbox/mod.ts";
import { FROM_SOURCE_FLAGS, HARK_RUN_FLAGS } from "../scripts/permissions.ts";
import { createHarkEnv, denoDirEnv, REPO_ROOT } from "./support/hark_env.ts";

async function run(args: string[], env: Record<string, string>, cwd = REPO_ROOT, stdin = "") {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    env: { PATH: Deno.env.get("PATH") ?? "", ...denoDirEnv(), ...env },
    clearEnv: true,
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Builds the bundle once for the tests of this file; it is removed when they end. */
let built: Promise<{ dir: string; entry: string }> | undefined;
function builtBundle(): Promise<{ dir: string; entry: string }> {
  built ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "hark-bundle-test-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    const entry = await bundleHark(dir, {
      env: { PATH: Deno.env.get("PATH") ?? "", ...denoDirEnv() },
    });
    return { dir, entry };
  })();
  return built;
}

Deno.test("the bundled CLI runs with exactly the compile-time permissions", async () => {
  const home = await createHarkEnv();
  try {
    const { entry: bundle } = await builtBundle();
    // Run from an empty folder so nothing but the bundle itself is loaded.
    const hark = (args: string[]) =>
      run(
        ["run", "--no-prompt", "--no-config", ...HARK_RUN_FLAGS, bundle, ...args],
        home.env,
        home.dir,
      );

    const version = await hark(["--version"]);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), denoJson.version);

    const help = await hark(["--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage: hark/);
    assert.match(help.stdout, /Examples:/);

    const set = await hark(["config", "set", "preferences.output_format", "csv"]);
    assert.equal(set.code, 0, set.stderr);
    const get = await hark(["config", "get", "preferences.output_format"]);
    assert.equal(get.code, 0, get.stderr);
    assert.equal(get.stdout, "csv\n");
    assert.equal((await Deno.stat(home.configPath)).mode! & 0o777, 0o600);

    const init = await hark(["config", "init", "--non-interactive", "--app-id", "cli_bundle"]);
    assert.equal(init.code, 2, init.stderr);
    assert.match(init.stderr, /--app-secret-stdin/);
    const secret = "bundle-secret-\u00e9-value";
    const stored = await run(
      [
        "run",
        "--no-prompt",
        "--no-config",
        ...HARK_RUN_FLAGS,
        bundle,
        "config",
        "init",
        "--non-interactive",
        "--app-id",
        "cli_bundle",
        "--app-secret-stdin",
      ],
      home.env,
      home.dir,
      secret,
    );
    assert.equal(stored.code, 0, stored.stderr);
    const reference = await hark(["config", "get", "apps.default.app_secret"]);
    const { keychain_namespace: namespace } = await home.readConfig();
    assert.equal(reference.stdout, `@keychain:hark/${namespace}/default/app_secret\n`);
    // hark mcp loads the MCP SDK on demand: the bundle must carry it and run it.
    const mcp = await run(
      ["run", "--no-prompt", "--no-config", ...HARK_RUN_FLAGS, bundle, "mcp"],
      home.env,
      home.dir,
      mcpScript("bundle-test", [{ jsonrpc: "2.0", id: 2, method: "tools/list" }]),
    );
    assert.equal(mcp.code, 0, mcp.stderr);
    const answers = mcp.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(answers[0].result.serverInfo.name, "hark");
    assert.ok(answers[1].result.tools.some((t: { name: string }) => t.name === "calendar_agenda"));

    // A shortcut: its service, the framework and the time code load from their chunks.
    const preview = await hark([
      "calendar",
      "+agenda",
      "--start",
      "2026-01-01",
      "--end",
      "2026-03-31",
      "--dry-run",
      "--format",
      "json",
    ]);
    assert.equal(preview.code, 0, preview.stderr);
    const requests = JSON.parse(preview.stdout) as { method: string; url: string }[];
    assert.ok(requests.length > 0);
    for (const r of requests) assert.match(`${r.method} ${r.url}`, /^GET .*\/instance_view\?/);
    // --jq loads jq (WebAssembly inside its JavaScript) from its chunk, nothing from the network.
    const filtered = await hark([
      "calendar",
      "+agenda",
      "--start",
      "2026-01-01",
      "--end",
      "2026-01-02",
      "--dry-run",
      "--jq",
      ".[].method",
    ]);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.equal(filtered.stdout, "GET\n");
    // The skills' text is in the bundle, not read from beside it.
    const skills = await hark(["skills", "list", "--jq", ".[].name"]);
    assert.equal(skills.code, 0, skills.stderr);
    assert.equal(skills.stdout, "hark-calendar\nhark-contact\nhark-im\nhark-api\n");
    const outs = [version, help, set, get, init, stored, reference, mcp, preview, filtered, skills];
    for (const out of outs) {
      assert.doesNotMatch(out.stderr, /PermissionDenied|Requires .* access|\s{4}at /);
    }
  } finally {
    await home.cleanup();
  }
});

Deno.test("the bundle reads the API catalogue beside it, only for API commands", async () => {
  const { dir, entry } = await builtBundle();
  const home = await createHarkEnv();
  // A copy of the bundle without its catalogue folder.
  const bare = await Deno.makeTempDir({ prefix: "hark-bundle-bare-" });
  try {
    for (const name of await chunkNames(dir)) {
      await Deno.copyFile(join(dir, name), join(bare, name));
    }
    const hark = (bundle: string, args: string[]) =>
      run(
        ["run", "--no-prompt", "--no-config", ...HARK_RUN_FLAGS, bundle, ...args],
        home.env,
        home.dir,
      );
    const api = ["docx", "document", "create", "--title", "Notes", "--dry-run"];
    const preview = await hark(entry, api);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(JSON.parse(preview.stdout).url, /\/open-apis\/docx\/v1\/documents$/);
    const bareEntry = join(bare, BUNDLE_ENTRY);
    for (const args of [["--version"], ["--help"], ["calendar", "+agenda", "--help"]]) {
      const out = await hark(bareEntry, args);
      assert.equal(out.code, 0, `${args.join(" ")} needs no catalogue: ${out.stderr}`);
    }
    const missing = await hark(bareEntry, api);
    assert.equal(missing.code, 5);
    assert.match(missing.stderr, /The API catalogue is missing: no index\.json in/);
  } finally {
    await Deno.remove(bare, { recursive: true });
    await home.cleanup();
  }
});

Deno.test("--version and --help read no config and open no keychain", async () => {
  const { entry } = await builtBundle();
  const home = await createHarkEnv({ HARK_KEYCHAIN: "vault" }); // not a backend
  try {
    await Deno.mkdir(join(home.dir, "config"), { recursive: true });
    await Deno.writeTextFile(home.configPath, "{ not json");
    const hark = (args: string[]) =>
      run(
        ["run", "--no-prompt", "--no-config", ...HARK_RUN_FLAGS, entry, ...args],
        home.env,
        home.dir,
      );
    for (const args of [["--version"], ["--help"], ["calendar", "+agenda", "--help"]]) {
      const out = await hark(args);
      assert.equal(out.code, 0, `${args.join(" ")}: ${out.stderr}`);
      assert.equal(out.stderr, "");
    }
    // The same settings do stop a command that reads them.
    const get = await hark(["config", "get", "preferences.output_format"]);
    assert.equal(get.code, 2, get.stderr);
    assert.match(get.stderr, /Invalid HARK_KEYCHAIN "vault"/);
    const fixed = await run(
      ["run", "--no-prompt", "--no-config", ...HARK_RUN_FLAGS, entry, "config", "get", "x"],
      { ...home.env, HARK_KEYCHAIN: "memory" },
      home.dir,
    );
    assert.equal(fixed.code, 2, fixed.stderr);
    assert.match(fixed.stderr, /Cannot parse the config file/);
  } finally {
    await home.cleanup();
  }
});

/** WebAssembly's magic number, `\0asm`, as base64 opens it: jq's chunk carries its module so. */
const WASM_BASE64 = '"AGFzbQ';

Deno.test("start-up loads no node: module: the entry's static imports stay in the bundle", async () => {
  const { dir } = await builtBundle();
  const graph = await staticGraph(dir, BUNDLE_ENTRY);
  assert.deepEqual(graph.external, [], "a node: import here costs 10-20 ms of every start-up");
  // jq (1.3 MB of WebAssembly as base64) and the skills' text load only when asked for.
  const loaded = await Promise.all(
    graph.chunks.map(({ name }) => Deno.readTextFile(join(dir, name))),
  );
  const jqChunks = await Promise.all(
    (await chunkNames(dir)).map(async (name) =>
      (await Deno.readTextFile(join(dir, name))).includes(WASM_BASE64)
    ),
  );
  assert.ok(jqChunks.some(Boolean), "the check can see jq's chunk");
  assert.ok(!loaded.some((text) => text.includes(WASM_BASE64)));
  assert.ok(!loaded.some((text) => text.includes("name: hark-calendar")));
  // The prompt library and the spinner exist, in chunks of their own loaded on demand.
  const lazy = (await Promise.all(
    (await chunkNames(dir)).map(async (name) =>
      chunkImports(await Deno.readTextFile(join(dir, name)))
    ),
  )).flatMap((imports) => imports.external);
  assert.ok(lazy.includes("node:readline"), "the prompt library's chunk is missing");
  assert.ok(lazy.includes("node:tty"));
});

/** Which of the bundle's chunks hold a source module (by the bundler's comment). */
async function chunkHolders(dir: string) {
  const names = await chunkNames(dir);
  const texts = new Map<string, string>();
  for (const name of names) texts.set(name, await Deno.readTextFile(join(dir, name)));
  const holding = (module: string) => names.filter((n) => texts.get(n)!.includes(`// ${module}`));
  // A dependency's modules are marked by their path in Deno's cache, which differs by machine.
  const holdingPackage = (name: string) => names.filter((n) => texts.get(n)!.includes(`/${name}/`));
  return { holding, holdingPackage };
}

Deno.test("a command's session loads no keychain backend until a secret is read", async () => {
  const { dir } = await builtBundle();
  const { holding } = await chunkHolders(dir);
  // The chunk `import("../session/session.ts")` loads (the bundle's chunks are merged, so it
  // is found by the module it holds), and what it imports.
  const [session] = holding("src/session/session.ts");
  assert.ok(session, "the check can see the session's chunk");
  const graph = (await staticGraph(dir, session)).chunks.map((c) => c.name);
  // An environment token or a dry run never opens the keychain: its 34 KB of backends
  // (file, Secret Service, macOS, Windows) load with the first secret read, not with the session.
  for (const backend of ["file_keychain", "linux_keychain", "macos_keychain"]) {
    const [chunk] = holding(`src/keychain/${backend}.ts`);
    assert.ok(chunk, `the check can see ${backend}`);
    assert.ok(!graph.includes(chunk), `the session's chunks load ${backend}`);
  }
});

Deno.test("a call with an environment token loads no sign-in, refresh or credential-command code", async () => {
  const { dir } = await builtBundle();
  const { holding, holdingPackage } = await chunkHolders(dir);
  // What `contact +me` imports: the contact shortcuts, then the session and the lifecycle.
  const modules = ["shortcuts/contact/mod", "session/session", "shortcuts/lifecycle"];
  const starts = new Set(modules.flatMap((m) => holding(`src/${m}.ts`)));
  assert.ok(starts.size >= 1, "the check can see the chunks it starts from");
  for (const m of modules) assert.ok(holding(`src/${m}.ts`).length === 1, `one chunk holds ${m}`);
  const loaded = new Set<string>();
  for (const start of starts) {
    for (const chunk of (await staticGraph(dir, start)).chunks) loaded.add(chunk.name);
  }
  // The environment provider answers first; what the others need (a credential command, a
  // refresh, a tenant token) loads only when it has nothing. The keychain provider itself (4 KB)
  // loads with the session: a stored sign-in's call then waits for one file fewer.
  for (
    const module of [
      "command_provider",
      "refresh_user_token",
      "tenant_token",
      "oauth_client",
      "token_endpoint",
      "app_credentials",
      "auth_status",
    ]
  ) {
    const [chunk] = holding(`src/auth/${module}.ts`);
    assert.ok(chunk, `the check can see ${module}`);
    assert.ok(!loaded.has(chunk), `contact +me loads ${module} (${chunk})`);
  }
  // A command writing JSON measures no text: the tables, cards and the width library load only
  // for a drawn format.
  const drawing = [
    ...holding("src/output/drawn_output.ts"),
    ...holding("src/output/text_width.ts"),
    ...holdingPackage("fast-string-truncated-width"),
  ];
  assert.equal(drawing.length, 3, "the check can see the drawing and width code");
  for (const chunk of drawing) assert.ok(!loaded.has(chunk), `contact +me loads ${chunk}`);
  // The pager (3 KB, declarations only at its top) costs it no file: its code is in a chunk
  // imported only at a terminal, or in the start-up chunk when merge_chunks.ts finds that cheaper.
  const [pager] = holding("src/output/pager.ts");
  const startUp = new Set(
    (await staticGraph(dir, holding("src/runtime/real_context.ts")[0])).chunks.map((c) => c.name),
  );
  assert.ok(pager, "the check can see the pager");
  assert.ok(!loaded.has(pager) || startUp.has(pager), `contact +me loads the pager (${pager})`);
});

Deno.test("a keychain read loads neither the refresh code nor another system's keychain", async () => {
  const { dir } = await builtBundle();
  const { holding } = await chunkHolders(dir);
  const reached = async (module: string) => {
    const [start] = holding(module);
    assert.ok(start, `the check can see ${module}`);
    return new Set((await staticGraph(dir, start)).chunks.map((c) => c.name));
  };
  const absent = (loaded: Set<string>, by: string, modules: string[]) => {
    for (const module of modules) {
      const [chunk] = holding(module);
      assert.ok(chunk, `the check can see ${module}`);
      assert.ok(!loaded.has(chunk), `${by} loads ${module} (${chunk})`);
    }
  };
  // A valid stored token needs no refresh, tenant token or OAuth code; no credential command.
  absent(await reached("src/auth/keychain_provider.ts"), "the keychain provider", [
    "src/auth/refresh_user_token.ts",
    "src/auth/tenant_token.ts",
    "src/auth/oauth_client.ts",
    "src/auth/token_endpoint.ts",
    "src/auth/command_provider.ts",
  ]);
  // The Secret Service in process runs no subprocess: secret-tool's runner, the macOS and the
  // Windows keychains stay out (their file holds both; see merge_chunks.ts), and so does the
  // file keychain.
  const linux = await reached("src/keychain/linux_keychain.ts");
  absent(linux, "the Linux keychain", [
    "src/keychain/_run_tool.ts",
    "src/keychain/macos_keychain.ts",
    "src/keychain/windows_keychain.ts",
    "src/keychain/file_keychain.ts",
  ]);
  // Each file loaded costs more than its bytes (see merge_chunks.ts): a backend is one file
  // beyond what every start-up loads (the choice of backend, the reads ahead, the socket).
  const startUp = await reached("src/runtime/real_context.ts");
  for (const module of ["src/keychain/select_keychain.ts", "src/runtime/unix_socket.ts"]) {
    assert.ok(holding(module).every((c) => startUp.has(c)), `start-up loads ${module}`);
  }
  for (const backend of ["linux_keychain", "file_keychain"]) {
    const loaded = await reached(`src/keychain/${backend}.ts`);
    const extra = [...loaded].filter((c) => !startUp.has(c));
    assert.equal(extra.length, 1, `${backend} loads ${extra.join(", ")}`);
  }
});

Deno.test("a one-request command runs without a young-generation collection", async () => {
  // What a one-request command allocates young (its code, Deno's fetch) is live until it ends:
  // the young generation must start big enough to hold it, not copy it in scavenges.
  const { entry } = await builtBundle();
  const sb = await startSandbox({ quiet: true });
  const home = await createHarkEnv();
  try {
    const answer = await fetch(`${sb.baseUrl}/sandbox/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ scopes: ["contact:user.base:readonly"] }),
    });
    const grant: { access_token: string } = await answer.json();
    const flags = HARK_RUN_FLAGS.map((f) => f.startsWith("--v8-flags=") ? `${f},--trace-gc` : f);
    const me = await run(
      ["run", "--no-prompt", "--no-config", ...flags, entry, "contact", "+me", "--json"],
      { ...home.env, HARK_BASE_URL: sb.baseUrl, HARK_USER_ACCESS_TOKEN: grant.access_token },
      home.dir,
    );
    assert.equal(me.code, 0, me.stderr);
    assert.match(me.stdout, new RegExp(sb.users[0].open_id));
    assert.doesNotMatch(me.stdout, /Scavenge|Mark-Compact/);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("every chunk is in deno compile's module graph of the entry", async () => {
  const { dir, entry } = await builtBundle();
  const info = await run(["info", "--json", "--no-config", entry], {});
  assert.equal(info.code, 0, info.stderr);
  const modules = (JSON.parse(info.stdout) as { modules: { specifier: string }[] }).modules
    .map((m) => m.specifier.split("/").at(-1));
  for (const name of await chunkNames(dir)) assert.ok(modules.includes(name), name);
});

Deno.test("chunks with CommonJS code load with the compile-time permissions", async () => {
  const { dir } = await builtBundle();
  const home = await createHarkEnv();
  try {
    const loader = join(home.dir, "load.js");
    await Deno.writeTextFile(loader, "await import(new URL(Deno.args[0], 'file:///'));\n");
    let checked = 0;
    for (const name of await chunkNames(dir)) {
      const text = await Deno.readTextFile(join(dir, name));
      if (!/\b__require\(\s*["']/.test(text)) continue;
      const path = join(dir, name);
      const loaded = await run(
        ["run", "--no-prompt", "--no-config", ...HARK_RUN_FLAGS, loader, path],
        home.env,
        home.dir,
      );
      assert.equal(loaded.code, 0, `${name}: ${loaded.stderr}`);
      checked++;
    }
    assert.ok(checked > 0, "no chunk requires a Node built-in: update this test");
  } finally {
    await home.cleanup();
  }
});

Deno.test("deferNodeModule() defers createRequire and refuses an unknown way of importing it", () => {
  const eager = 'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
    "var __require = __deno_internal_createRequire(import.meta.url);\n";
  const lazy = deferNodeModule(`var a = 1;\n${eager}export { __require };\n`);
  assert.doesNotMatch(lazy, /from "node:module"/);
  assert.match(lazy, /var __require = \(id\) =>/);
  assert.equal(deferNodeModule("var a = 1;\n"), "var a = 1;\n");
  assert.throws(
    () => deferNodeModule('import { createRequire } from "node:module";\n'),
    /Cannot defer "node:module"/,
  );
});

Deno.test("the hark task, the compile script and the tests share one list of flags", () => {
  const task = denoJson.tasks.hark;
  const flags = [...FROM_SOURCE_FLAGS, ...HARK_RUN_FLAGS].join(" ");
  assert.equal(task, `HARK_TASK_CWD="$INIT_CWD" deno run ${flags} scripts/hark_task.ts`);
  for (const target of TARGETS) {
    const args = compileArgs(target, "dist", "/tmp/bundle/main.js");
    for (const flag of HARK_RUN_FLAGS) assert.ok(args.includes(flag), `${target} lacks ${flag}`);
    assert.ok(!args.includes("--allow-all") && !args.includes("-A"));
    assert.ok(
      args.includes(
        "--v8-flags=--expose-gc,--max-semi-space-size=2,--min-semi-space-size=2,--max-opt=2",
      ),
    );
    // What is compiled is the bundle's entry, with V8's code cache left on.
    assert.equal(args.at(-1), "/tmp/bundle/main.js");
    assert.ok(!args.includes("main.ts") && !args.includes("--no-code-cache"));
  }
  assert.equal(TARGETS.length, 6);
});

Deno.test("deno task hark resolves relative paths in the folder it was started in", async () => {
  const hark = await createHarkEnv();
  const where = await Deno.makeTempDir({ prefix: "hark-task-cwd-" });
  // Relative: in the folder the task was started in, not the repository the task runs in.
  const relative = join(`hark-task-cwd-${crypto.randomUUID()}`, "config.json");
  try {
    await Deno.mkdir(join(where, relative, ".."));
    const set = await run(
      [
        "task",
        "--quiet",
        "--config",
        join(REPO_ROOT, "deno.json"),
        "hark",
        "config",
        "set",
        "preferences.color",
        "false",
      ],
      { ...hark.env, HARK_CONFIG: relative },
      where,
    );
    assert.equal(set.code, 0, set.stderr);
    const written = JSON.parse(await Deno.readTextFile(join(where, relative)));
    assert.equal(written.preferences.color, false);
    assert.equal(await Deno.lstat(join(REPO_ROOT, relative)).catch(() => undefined), undefined);
  } finally {
    await Deno.remove(join(REPO_ROOT, relative, ".."), { recursive: true }).catch(() => {});
    await Deno.remove(where, { recursive: true });
    await hark.cleanup();
  }
});
