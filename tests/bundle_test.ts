/**
 * Bundles main.ts into one file and runs it with exactly the permissions the binary is compiled
 * with, so a missing permission or a bundling problem fails here rather than in a user's binary.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import { compileArgs, TARGETS } from "../scripts/compile.ts";
import { HARK_PERMISSIONS } from "../scripts/permissions.ts";
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

Deno.test("the bundled CLI runs with exactly the compile-time permissions", async () => {
  const home = await createHarkEnv();
  try {
    const bundle = join(home.dir, "hark.js");
    const built = await run(
      ["bundle", "--quiet", "--platform", "deno", "--output", bundle, "main.ts"],
      {},
    );
    assert.equal(built.code, 0, built.stderr);
    // Run from an empty folder so nothing but the bundle itself is loaded.
    const hark = (args: string[]) =>
      run(
        ["run", "--no-prompt", "--no-config", ...HARK_PERMISSIONS, bundle, ...args],
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
        ...HARK_PERMISSIONS,
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
      ["run", "--no-prompt", "--no-config", ...HARK_PERMISSIONS, bundle, "mcp"],
      home.env,
      home.dir,
      [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "bundle-test", version: "1" },
          },
        },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ].map((m) => JSON.stringify(m) + "\n").join(""),
    );
    assert.equal(mcp.code, 0, mcp.stderr);
    const answers = mcp.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(answers[0].result.serverInfo.name, "hark");
    assert.ok(answers[1].result.tools.some((t: { name: string }) => t.name === "calendar_agenda"));
    for (const out of [version, help, set, get, init, stored, reference, mcp]) {
      assert.doesNotMatch(out.stderr, /PermissionDenied|Requires .* access|\s{4}at /);
    }
  } finally {
    await home.cleanup();
  }
});

Deno.test("the hark task, the compile script and the tests share one permission list", () => {
  const task = denoJson.tasks.hark;
  assert.equal(task, `deno run ${HARK_PERMISSIONS.join(" ")} main.ts`);
  for (const target of TARGETS) {
    const args = compileArgs(target, "dist");
    for (const flag of HARK_PERMISSIONS) assert.ok(args.includes(flag), `${target} lacks ${flag}`);
    assert.ok(!args.includes("--allow-all") && !args.includes("-A"));
  }
  assert.equal(TARGETS.length, 6);
});
