import assert from "node:assert/strict";
import { join } from "node:path";
import {
  createTestContext,
  type TestContext,
  type TestContextOptions,
} from "../../tests/support/test_context.ts";
import { InternalError, ValidationError } from "../errors/mod.ts";
import { renderError } from "./render_error.ts";
import { errorStyle, runCli } from "./run_cli.ts";
import { buildRoot } from "./root.ts";
import type { CommandSpec } from "./command_spec.ts";
import { allNodes, loadCommandTree } from "./command_tree.ts";

/** Runs `fn` with a test context whose HARK_CONFIG points into a fresh temp folder. */
async function withCli(
  fn: (ctx: TestContext, configPath: string) => Promise<void>,
  options: TestContextOptions = {},
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hark-cli-test-" });
  try {
    const configPath = join(dir, "hark", "config.json");
    const ctx = createTestContext({
      ...options,
      env: { HARK_CONFIG: configPath, ...options.env },
    });
    await fn(ctx, configPath);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function writeConfig(path: string, config: unknown): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(config));
}

function validation(outcome: { code: number; error?: unknown }): ValidationError {
  assert.equal(outcome.code, 2);
  assert.ok(outcome.error instanceof ValidationError, String(outcome.error));
  return outcome.error;
}

Deno.test("runCli() turns an unknown command into exit 2 with did-you-mean", async () => {
  await withCli(async (ctx) => {
    const outcome = await runCli(ctx, ["confg"]);
    const error = validation(outcome);
    assert.equal(error.message, "Unknown command 'confg' (did you mean config?)");
    assert.equal(error.param, "confg");
    assert.equal(error.recovery.command, "hark --help");
    assert.equal(ctx.stdout.text(), "");
    assert.equal(ctx.stderr.text(), "", "runCli itself prints no error");
  });
});

Deno.test("runCli() turns an unknown sub-command into exit 2 naming its group's help", async () => {
  await withCli(async (ctx) => {
    const outcome = await runCli(ctx, ["config", "gte"]);
    const error = validation(outcome);
    assert.match(error.message, /^Unknown command 'gte' \(did you mean get\?\)$/);
    assert.equal(outcome.helpCommand, "hark config --help");
  });
});

Deno.test("help of an unknown command is exit 2, as the unknown command is", async () => {
  const cases: [string[], string, string][] = [
    [["help", "nope"], "Unknown command 'nope'", "hark --help"],
    [["help", "confg"], "Unknown command 'confg' (did you mean config?)", "hark --help"],
    [["nope", "--help"], "Unknown command 'nope'", "hark --help"],
    [["help", "config", "gte"], "Unknown command 'gte' (did you mean get?)", "hark config --help"],
    [["config", "help", "gte"], "Unknown command 'gte' (did you mean get?)", "hark config --help"],
  ];
  for (const [argv, message, help] of cases) {
    await withCli(async (ctx) => {
      const outcome = await runCli(ctx, argv);
      const error = validation(outcome);
      assert.equal(error.message, message, argv.join(" "));
      assert.equal(error.recovery.command, help, argv.join(" "));
      assert.equal(outcome.helpCommand, help, argv.join(" "));
      assert.equal(ctx.stdout.text(), "", argv.join(" "));
    });
  }
});

Deno.test("runCli() turns an unknown flag into exit 2 with did-you-mean", async () => {
  await withCli(async (ctx) => {
    const outcome = await runCli(ctx, ["config", "get", "--jsn"]);
    const error = validation(outcome);
    assert.equal(error.message, "Unknown option '--jsn' (did you mean --json?)");
    assert.equal(error.param, "--jsn");
    assert.equal(error.recovery.command, "hark config get --help");
    assert.equal(outcome.helpCommand, "hark config get --help");
  });
  await withCli(async (ctx) => {
    const error = validation(await runCli(ctx, ["--bogus"]));
    assert.equal(error.message, "Unknown option '--bogus'");
  });
});

Deno.test("runCli() reports a missing option value with exit 2 naming the flag", async () => {
  for (const argv of [["--format"], ["config", "get", "--profile"]]) {
    await withCli(async (ctx) => {
      const error = validation(await runCli(ctx, argv));
      assert.match(error.message, new RegExp(`^Option '${argv.at(-1)} <\\w+>' argument missing$`));
    });
  }
});

Deno.test("runCli() reports a missing argument with exit 2 naming it", async () => {
  await withCli(async (ctx) => {
    const outcome = await runCli(ctx, ["config", "set", "preferences.color"]);
    const error = validation(outcome);
    assert.equal(error.message, "Missing required argument 'value'");
    assert.equal(error.param, "value");
    assert.equal(error.recovery.command, "hark config set --help");
  });
});

Deno.test("runCli() reports too many arguments with exit 2", async () => {
  await withCli(async (ctx) => {
    const error = validation(await runCli(ctx, ["config", "get", "a", "b"]));
    assert.match(error.message, /^Too many arguments for 'get'/);
  });
});

Deno.test("runCli() rejects a bad --format or --as value listing the choices", async () => {
  await withCli(async (ctx) => {
    const error = validation(await runCli(ctx, ["--format", "xml", "profile", "list"]));
    assert.match(error.message, /'--format <format>' argument 'xml' is invalid/);
    assert.match(error.message, /table, json, ndjson, csv/);
  });
  await withCli(async (ctx) => {
    const error = validation(await runCli(ctx, ["profile", "list", "--as", "robot"]));
    assert.match(error.message, /'--as <identity>' argument 'robot' is invalid/);
    assert.match(error.message, /user, bot/);
  });
});

Deno.test("runCli() rejects --json together with another --format", async () => {
  await withCli(async (ctx) => {
    const outcome = await runCli(ctx, ["--json", "profile", "list", "--format", "csv"]);
    const error = validation(outcome);
    assert.equal(error.message, "Conflicting flags: --json and --format csv");
    assert.equal(error.param, "--format");
    assert.equal(ctx.stdout.text(), "");
  });
  await withCli(async (ctx) => {
    const outcome = await runCli(ctx, ["--json", "--format", "json", "profile", "list"]);
    assert.equal(outcome.code, 0);
  });
});

Deno.test("runCli() accepts global flags before and after the command", async () => {
  const config = {
    apps: { default: { app_id: "cli_default" }, work: { app_id: "cli_work" } },
  };
  const placements = [
    ["--json", "--profile", "work", "--no-color", "--dry-run", "--as", "bot", "profile", "list"],
    ["profile", "--json", "--profile", "work", "list", "--no-color"],
    ["profile", "list", "--json", "--profile", "work", "--dry-run", "--as", "bot", "--no-color"],
    ["profile", "list", "--format", "json", "--profile=work"],
  ];
  for (const argv of placements) {
    await withCli(async (ctx, path) => {
      await writeConfig(path, config);
      const outcome = await runCli(ctx, argv);
      assert.equal(outcome.code, 0, `${argv.join(" ")}: ${outcome.error?.message}`);
      const rows = JSON.parse(ctx.stdout.text());
      assert.deepEqual(
        rows.map((r: { name: string; active: boolean }) => [r.name, r.active]),
        [["default", false], ["work", true]],
        argv.join(" "),
      );
    });
  }
});

Deno.test("runCli() applies --format csv and table from any position", async () => {
  for (
    const argv of [["--format", "csv", "profile", "list"], ["profile", "list", "--format", "csv"]]
  ) {
    await withCli(async (ctx, path) => {
      await writeConfig(path, { apps: { default: { app_id: "cli_1" } } });
      assert.equal((await runCli(ctx, argv)).code, 0);
      assert.match(ctx.stdout.text(), /^,NAME,APP ID,BASE URL,USER\r\n\*,default,cli_1,/);
    });
  }
  await withCli(async (ctx, path) => {
    await writeConfig(path, { apps: { default: { app_id: "cli_1" } } });
    assert.equal((await runCli(ctx, ["profile", "list", "--format", "table"])).code, 0);
    assert.match(ctx.stdout.text(), /^ +NAME +APP ID +BASE URL +USER\n\* +default +cli_1 /);
  });
});

Deno.test("runCli() sets json mode for errors from --json or --format json", async () => {
  for (const argv of [["--json", "confg"], ["confg", "--format", "json"], ["--format=json", "x"]]) {
    await withCli(async (ctx) => {
      assert.equal((await runCli(ctx, argv)).json, true, argv.join(" "));
    });
  }
  await withCli(async (ctx) => {
    assert.equal((await runCli(ctx, ["confg", "--", "--json"])).json, false);
  });
});

Deno.test("help, --help and help <command> exit 0 and print to stdout", async () => {
  const cases: [string[], RegExp][] = [
    [[], /^Usage: hark /],
    [["help"], /^Usage: hark /],
    [["--help"], /^Usage: hark /],
    [["-h"], /^Usage: hark /],
    [["help", "config"], /^Usage: hark config /],
    [["help", "help"], /^Usage: hark /],
    [["config", "--help"], /^Usage: hark config /],
    [["config"], /^Usage: hark config /],
    [["config", "set", "--help"], /^Usage: hark config set /],
    [["--json", "profile", "use", "--help"], /^Usage: hark profile use /],
  ];
  for (const [argv, pattern] of cases) {
    await withCli(async (ctx) => {
      const outcome = await runCli(ctx, argv);
      assert.equal(outcome.code, 0, argv.join(" "));
      assert.equal(outcome.error, undefined, argv.join(" "));
      assert.match(ctx.stdout.text(), pattern, argv.join(" "));
      assert.match(ctx.stdout.text(), /Examples:\n {2}\$ hark /, argv.join(" "));
      assert.equal(ctx.stderr.text(), "", argv.join(" "));
    });
  }
});

Deno.test("--help never reads the config", async () => {
  await withCli(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, "{ broken");
    const outcome = await runCli(ctx, ["config", "get", "--help"]);
    assert.equal(outcome.code, 0);
  });
});

Deno.test("--version and -V print the version from deno.json", async () => {
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assert.match(denoJson.version, /^\d+\.\d+\.\d+/);
  for (const argv of [["--version"], ["-V"]]) {
    await withCli(async (ctx) => {
      const outcome = await runCli(ctx, argv);
      assert.equal(outcome.code, 0);
      assert.equal(ctx.stdout.text(), `${denoJson.version}\n`);
    });
  }
});

Deno.test("every command's help has a description and at least one example", async () => {
  const all = allNodes(await loadCommandTree(buildRoot()));
  assert.ok(all.length >= 20, "every system command and shortcut");
  for (const node of all) {
    const path = node.path.join(" ");
    assert.ok(node.spec.description.trim().length > 0, `${path} has a description`);
    assert.ok((node.spec.examples ?? []).length > 0, `${path} has an example`);
    await withCli(async (helpCtx) => {
      const outcome = await runCli(helpCtx, [...node.path.slice(1), "--help"]);
      assert.equal(outcome.code, 0, `${path} --help: ${outcome.error?.message}`);
      const text = helpCtx.stdout.text();
      assert.ok(text.startsWith(`Usage: ${path}`), `${path}: ${text.slice(0, 80)}`);
      assert.ok(text.includes(node.spec.description.split(" ").slice(0, 4).join(" ")), path);
      assert.match(text, /\nExamples:\n( {2}\$ .+\n)+/, path);
      assert.match(text, /\n {2}\$ .*\bhark\b/, `${path}: an example runs hark`);
    });
  }
});

Deno.test("every example runs the command it documents, or one below it", async () => {
  const tree = await loadCommandTree(buildRoot());
  for (const node of allNodes(tree)) {
    const own = node.path.join(" ");
    for (const example of node.spec.examples ?? []) {
      const line = example.replace(/\s+#.*$/, "");
      const start = line.indexOf("hark ");
      if (start < 0) continue;
      const words = line.slice(start).split(/\s+/).slice(1).map((w) => w.replace(/[()"'`]/g, ""));
      let found = tree;
      for (const word of words) {
        const next = found.commands.find((c) =>
          c.spec.name === word || c.spec.aliases?.includes(word)
        );
        if (!next) break;
        found = next;
      }
      const path = found.path.join(" ");
      assert.ok(
        path === own || path.startsWith(`${own} `),
        `example of "${own}" runs "${path}": ${example}`,
      );
      await withCli(async (ctx) => {
        const outcome = await runCli(ctx, [...found.path.slice(1), "--help"]);
        assert.equal(outcome.code, 0, line);
      });
    }
  }
});

function throwingTree(thrown: unknown): CommandSpec {
  return {
    name: "hark",
    description: "root",
    flags: [{ name: "debug", description: "debug" }, { name: "json", description: "json" }],
    commands: [{
      name: "boom",
      description: "Throws",
      run: () => {
        throw thrown;
      },
    }],
  };
}

Deno.test("an unexpected exception becomes an internal error, exit 5, one line, no stack", async () => {
  const ctx = createTestContext();
  const thrown = new TypeError("Cannot read properties of undefined (reading 'x')");
  const outcome = await runCli(ctx, ["boom"], throwingTree(thrown));
  assert.equal(outcome.code, 5);
  assert.ok(outcome.error instanceof InternalError);
  assert.equal(outcome.error.cause, thrown);
  assert.equal(outcome.debug, false);
  assert.equal(outcome.helpCommand, "hark boom --help");
  const text = renderError(outcome.error, outcome);
  assert.equal(
    text.split("\n")[0],
    "error: Unexpected error: TypeError: Cannot read properties of undefined (reading 'x')",
  );
  assert.ok(!text.includes("    at "), text);
  assert.ok(!text.includes(".ts:"), text);
  const json = renderError(outcome.error, { ...outcome, json: true });
  const envelope = JSON.parse(json);
  assert.equal(envelope.error.code, 5);
  assert.equal(envelope.error.type, "internal");
  assert.equal(json.trim().split("\n").length, 1);
  assert.ok(!json.includes("    at "));
});

Deno.test("--debug or HARK_DEBUG=1 adds the stack trace of an internal error", async () => {
  const cases: [string[], Record<string, string>][] = [
    [["boom", "--debug"], {}],
    [["--debug", "boom"], {}],
    [["boom"], { HARK_DEBUG: "1" }],
    [["boom"], { HARK_DEBUG: "true" }],
  ];
  for (const [argv, env] of cases) {
    const ctx = createTestContext({ env });
    const thrown = new TypeError("kaput");
    const outcome = await runCli(ctx, argv, throwingTree(thrown));
    assert.equal(outcome.code, 5);
    assert.equal(outcome.debug, true, JSON.stringify({ argv, env }));
    const text = renderError(outcome.error!, outcome);
    assert.match(text, /^error: Unexpected error: TypeError: kaput\n/);
    assert.match(text, /TypeError: kaput\n\s+at /, "the original stack is shown");
  }
  const off = await runCli(
    createTestContext({ env: { HARK_DEBUG: "0" } }),
    ["boom"],
    throwingTree(new Error("x")),
  );
  assert.equal(off.debug, false);
});

Deno.test("a HarkError thrown by an action keeps its own exit code", async () => {
  const ctx = createTestContext();
  const outcome = await runCli(
    ctx,
    ["boom"],
    throwingTree(new ValidationError("Invalid --x", { param: "--x" })),
  );
  assert.equal(outcome.code, 2);
  assert.ok(outcome.error instanceof ValidationError);
});

Deno.test("errorStyle() makes errors JSON when preferences.output_format is json", async () => {
  await withCli(async (ctx, path) => {
    await writeConfig(path, { preferences: { output_format: "json" } });
    const outcome = await runCli(ctx, ["confg"]);
    assert.equal(outcome.json, false);
    assert.equal((await errorStyle(ctx, outcome)).json, true);
  });
  await withCli(async (ctx, path) => {
    await writeConfig(path, { preferences: { output_format: "table" } });
    assert.equal((await errorStyle(ctx, await runCli(ctx, ["confg"]))).json, false);
  });
  await withCli(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, "{ broken");
    const outcome = await runCli(ctx, ["confg"]);
    assert.equal((await errorStyle(ctx, outcome)).json, false, "a broken config hides nothing");
    assert.equal(outcome.code, 2);
  });
});

Deno.test("errorStyle() colours only a terminal, and honours preferences.color and TERM", async () => {
  const style = async (config: unknown, env: Record<string, string>, argv = ["confg"]) => {
    let color = false;
    await withCli(async (ctx, path) => {
      await writeConfig(path, config);
      color = (await errorStyle(ctx, await runCli(ctx, argv))).color;
    }, { stderrIsTerminal: true, env });
    return color;
  };
  assert.equal(await style({}, {}), true);
  assert.equal(await style({ preferences: { color: false } }, {}), false);
  assert.equal(await style({}, { TERM: "dumb" }), false);
  assert.equal(await style({}, { NO_COLOR: "1" }), false);
  assert.equal(await style({}, {}, ["confg", "--no-color"]), false);
});

Deno.test("a malformed config fails a command with exit 2 naming file, line and column", async () => {
  await withCli(async (ctx, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, '{\n  "apps": {\n    "default": {\n      "app_id": cli\n');
    const outcome = await runCli(ctx, ["config", "set", "preferences.color", "false"]);
    const error = validation(outcome);
    assert.ok(error.message.includes(`"${path}"`), error.message);
    assert.match(error.message, /line 4, column 17/);
    assert.equal(
      await Deno.readTextFile(path),
      '{\n  "apps": {\n    "default": {\n      "app_id": cli\n',
    );
  });
});

Deno.test("runCli() refuses --jq on hark mcp before starting it", async () => {
  const ctx = createTestContext();
  const outcome = await runCli(ctx, ["mcp", "--jq", "."]);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.error?.message, "--jq does not apply to hark mcp: it prints no JSON data");
  assert.equal(ctx.stdout.text(), "");
});
