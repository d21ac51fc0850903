import assert from "node:assert/strict";
import { createTestContext } from "../../../tests/support/test_context.ts";
import type { CommandSpec } from "../command_spec.ts";
import { loadCommandTree } from "../command_tree.ts";
import { runCli } from "../run_cli.ts";
import { completionCommand } from "./completion.ts";
import { completionModel, type CompletionNode, fishQuote, shellQuote } from "./model.ts";
import { completionScript } from "./script.ts";

const noop = () => Promise.resolve();

/** A small tree with every shape completion handles. */
function sampleTree(): CommandSpec {
  const root: CommandSpec = {
    name: "hark",
    description: "root",
    flags: [
      { name: "json", description: "JSON output" },
      {
        name: "format",
        value: "<format>",
        description: "output format",
        choices: ["table", "json", "csv"],
      },
      { name: "profile", value: "<name>", description: "the profile" },
    ],
    commands: [
      {
        name: "config",
        aliases: ["cfg"],
        description: "Read and change settings",
        commands: [
          {
            name: "get",
            description: "Print a setting",
            args: [{ name: "key", description: "the key", required: false }],
            run: noop,
          },
          {
            name: "set",
            description: "Change a setting",
            args: [
              { name: "key", description: "the key", required: true },
              { name: "value", description: "the value", required: true },
            ],
            run: noop,
          },
        ],
      },
      {
        name: "calendar",
        description: "Calendar\nsecond line",
        loadCommands: () =>
          Promise.resolve([{
            name: "+agenda",
            description: "List\tevents",
            flags: [
              { name: "view", value: "<view>", description: "the view", choices: ["day", "week"] },
              { name: "file", value: "<file>", description: "read from a file" },
              { name: "yes", short: "y", description: "no questions" },
            ],
            args: [{ name: "dir", description: "a folder", required: false }],
            run: noop,
          }]),
      },
      { name: "it's", description: `say "hi" it's $HOME`, run: noop },
    ],
  };
  return root;
}

async function model(root = sampleTree()): Promise<CompletionNode> {
  return completionModel(await loadCommandTree(root));
}

function child(node: CompletionNode, name: string): CompletionNode {
  const found = node.commands.find((c) => c.path.at(-1) === name);
  assert.ok(found, `no command "${name}" under "${node.path.join(" ")}"`);
  return found;
}

Deno.test("completionModel() lists commands, loaded services, help in every group, aliases", async () => {
  const tree = await model();
  assert.deepEqual(tree.path, ["hark"]);
  assert.deepEqual(tree.commands.map((c) => c.path.at(-1)), ["config", "calendar", "it's", "help"]);
  assert.deepEqual(child(tree, "config").aliases, ["cfg"]);
  assert.deepEqual(child(child(tree, "calendar"), "+agenda").path, ["hark", "calendar", "+agenda"]);
  assert.equal(child(tree, "calendar").description, "Calendar");
});

Deno.test("completionModel() gives own flags first, then --help, then the global ones", async () => {
  const agenda = child(child(await model(), "calendar"), "+agenda");
  assert.deepEqual(agenda.flags.map((f) => f.names), [
    ["--view"],
    ["--file"],
    ["--yes", "-y"],
    ["--help", "-h"],
    ["--version", "-V"],
    ["--json"],
    ["--format"],
    ["--profile"],
  ]);
  const byName = (name: string) => agenda.flags.find((f) => f.names[0] === name)!;
  assert.deepEqual(byName("--view").choices, ["day", "week"]);
  assert.equal(byName("--view").takesValue, true);
  assert.equal(byName("--file").files, true);
  assert.equal(byName("--yes").takesValue, false);
  assert.deepEqual(byName("--format").choices, ["table", "json", "csv"]);
  assert.equal(byName("--profile").files, false);
  assert.equal(agenda.description, "List events");
  assert.deepEqual(agenda.args, [{ choices: [], files: true, profiles: false }]);
});

Deno.test("completionModel() completes the sibling commands after help", async () => {
  const tree = await model();
  assert.deepEqual(child(tree, "help").args[0].choices, ["config", "calendar", "it's"]);
  assert.deepEqual(child(child(tree, "config"), "help").args[0].choices, ["get", "set"]);
  // The help command has no --help of its own, but still takes the global flags.
  const helpFlags = child(tree, "help").flags.flatMap((f) => f.names);
  assert.ok(!helpFlags.includes("--help"));
  assert.ok(helpFlags.includes("--json"));
});

Deno.test("completionModel() reads the choices of arguments", async () => {
  const root = sampleTree();
  root.commands = [...root.commands!, completionCommand(() => root)];
  const completion = child(await model(root), "completion");
  assert.deepEqual(completion.args, [{
    choices: ["bash", "zsh", "fish"],
    files: false,
    profiles: false,
  }]);
});

Deno.test("shellQuote() and fishQuote() keep any text literal", () => {
  assert.equal(shellQuote("+agenda"), "'+agenda'");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.equal(shellQuote("$(x) `y`"), "'$(x) `y`'");
  assert.equal(fishQuote("it's"), `'it\\'s'`);
  assert.equal(fishQuote("a\\b"), `'a\\\\b'`);
});

Deno.test("completionScript('bash') registers a function holding the whole tree", async () => {
  const script = await completionScript("bash", sampleTree());
  assert.match(script, /^# bash completion for hark/);
  assert.match(script, /\ncomplete -F _hark 'hark'\n$/);
  assert.ok(script.includes("\n    'hark calendar')\n      __hark_vals+=('+agenda' 'help')\n"));
  assert.match(script, /'config'\|'cfg'\) __hark_next='config' ;;/);
  assert.ok(script.includes(`'it'\\''s'`));
  assert.ok(script.includes(`'say "hi" it'\\''s $HOME'`));
  assert.ok(script.includes(`'--view') __hark_add "$3" 'day' 'week' ;;`));
  assert.ok(script.includes(`'#0') __hark_files=1 ;;`));
});

Deno.test("completionScript('zsh') is a #compdef file that also works when sourced", async () => {
  const script = await completionScript("zsh", sampleTree());
  assert.equal(script.split("\n")[0], "#compdef hark");
  assert.ok(script.includes("compdef _hark 'hark'"));
  assert.ok(script.includes('_hark "$@"'));
  assert.ok(script.includes("emulate -L zsh"));
  assert.ok(script.includes(`'hark calendar +agenda'`));
});

Deno.test("completionScript('fish') feeds one function to complete", async () => {
  const script = await completionScript("fish", sampleTree());
  assert.match(script, /^# fish completion for hark/);
  assert.ok(script.includes("complete -c 'hark' -e\ncomplete -c 'hark' -f -a '(__hark_complete)'"));
  assert.ok(script.includes(`'it\\'s'`));
  assert.ok(script.includes(`test "$argv[1]" = 'hark calendar +agenda'`));
});

Deno.test("completionScript() names its functions after the program", async () => {
  const root: CommandSpec = {
    name: "my-cli",
    description: "x",
    flags: [{ name: "x", description: "x" }],
    commands: [],
  };
  assert.ok((await completionScript("bash", root)).includes("complete -F _my_cli 'my-cli'"));
  assert.ok((await completionScript("zsh", root)).startsWith("#compdef my-cli\n"));
  assert.ok((await completionScript("fish", root)).includes("function __my_cli_candidates"));
});

function rootWithCompletion(): CommandSpec {
  const root = sampleTree();
  root.commands = [...root.commands!, completionCommand(() => root)];
  return root;
}

Deno.test("hark completion <shell> prints the script of that shell for the whole tree", async () => {
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const root = rootWithCompletion();
    const ctx = createTestContext();
    const outcome = await runCli(ctx, ["completion", shell], root);
    assert.equal(outcome.code, 0, outcome.error?.message);
    assert.equal(ctx.stdout.text(), await completionScript(shell, root));
    assert.ok(ctx.stdout.text().includes("'completion'"));
  }
});

Deno.test("hark completion rejects an unknown shell with exit 2 listing the shells", async () => {
  const ctx = createTestContext();
  const outcome = await runCli(ctx, ["completion", "tcsh"], rootWithCompletion());
  assert.equal(outcome.code, 2);
  assert.match(
    outcome.error!.message,
    /Argument 'tcsh' is invalid\. Allowed choices are bash, zsh, fish/,
  );
  assert.equal(ctx.stdout.text(), "");
});

Deno.test("completionModel() marks --profile and profile names for hark to list", async () => {
  const root: CommandSpec = {
    name: "hark",
    description: "",
    flags: [{ name: "profile", value: "<name>", description: "p", dynamicValues: "profiles" }],
    commands: [{
      name: "use",
      description: "Use",
      args: [{ name: "name", description: "n", required: true, dynamicValues: "profiles" }],
      run: () => Promise.resolve(),
    }],
  };
  const use = child(await model(root), "use");
  assert.equal(use.flags.find((f) => f.names[0] === "--profile")?.profiles, true);
  assert.deepEqual(use.args[0], { choices: [], files: false, profiles: true });
});

Deno.test("completionModel() offers suggested values of flags and arguments without restricting them", async () => {
  const root: CommandSpec = {
    name: "hark",
    description: "",
    commands: [{
      name: "get",
      description: "Get",
      flags: [{
        name: "status",
        value: "<s>",
        description: "s",
        suggestions: ["accept", "decline"],
      }],
      args: [{ name: "key", description: "k", required: false, suggestions: ["active_profile"] }],
      run: () => Promise.resolve(),
    }],
  };
  const get = child(await model(root), "get");
  assert.deepEqual(get.flags.find((f) => f.names[0] === "--status")?.choices, [
    "accept",
    "decline",
  ]);
  assert.deepEqual(get.args[0], { choices: ["active_profile"], files: false, profiles: false });
});
