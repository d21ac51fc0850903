import assert from "node:assert/strict";
import {
  Command,
  CommanderError,
  type CommandUnknownOpts,
  Option,
} from "@commander-js/extra-typings";
import { createTestContext } from "../testing/test_context.ts";
import {
  completionCommand,
  type CompletionNode,
  completionScript,
  completionTree,
  fishQuote,
  shellQuote,
} from "./completion.ts";

/** A small tree with every shape completion handles. */
function sampleTree(): CommandUnknownOpts {
  const root = new Command("hark")
    .version("1.0.0", "-V, --version", "print the version")
    .option("--json", "JSON output")
    .addOption(new Option("--format <format>", "output format").choices(["table", "json", "csv"]))
    .option("--profile <name>", "the profile")
    .addOption(new Option("--secret-flag", "hidden").hideHelp());
  const config = new Command("config").alias("cfg").description("Read and change settings");
  config.command("get").description("Print a setting").argument("[key]", "the key");
  config.command("set").argument("<key>").argument("<value>");
  const calendar = new Command("calendar").description("Calendar\nsecond line");
  calendar
    .command("+agenda")
    .description("List\tevents")
    .addOption(new Option("--view <view>", "the view").choices(["day", "week"]))
    .option("--file <file>", "read from a file")
    .option("-y, --yes", "no questions")
    .option("--level [n]", "optional value")
    .argument("[dirs...]", "folders");
  const quoted = new Command("it's").description(`say "hi" it's $HOME`);
  root
    .addCommand(config as unknown as Command)
    .addCommand(calendar as unknown as Command)
    .addCommand(quoted as unknown as Command)
    .addCommand(new Command("secret"), { hidden: true });
  return root as unknown as CommandUnknownOpts;
}

function child(node: CompletionNode, name: string): CompletionNode {
  const found = node.commands.find((c) => c.path.at(-1) === name);
  assert.ok(found, `no command "${name}" under "${node.path.join(" ")}"`);
  return found;
}

Deno.test("completionTree() lists visible commands, the implicit help and aliases", () => {
  const tree = completionTree(sampleTree());
  assert.deepEqual(tree.path, ["hark"]);
  assert.deepEqual(tree.commands.map((c) => c.path.at(-1)), [
    "config",
    "calendar",
    "it's",
    "help",
  ]);
  assert.deepEqual(child(tree, "config").aliases, ["cfg"]);
  assert.deepEqual(child(child(tree, "calendar"), "+agenda").path, ["hark", "calendar", "+agenda"]);
  assert.equal(child(tree, "calendar").description, "Calendar");
});

Deno.test("completionTree() gives own flags first, then inherited ones, without hidden ones", () => {
  const agenda = child(child(completionTree(sampleTree()), "calendar"), "+agenda");
  assert.deepEqual(agenda.flags.map((f) => f.names), [
    ["--view"],
    ["--file"],
    ["--yes", "-y"],
    ["--level"],
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
  assert.equal(byName("--level").takesValue, true);
  assert.deepEqual(byName("--format").choices, ["table", "json", "csv"]);
  assert.equal(byName("--profile").files, false);
  assert.equal(agenda.description, "List events");
  assert.deepEqual(agenda.args, [{ choices: [], files: true, variadic: true }]);
});

Deno.test("completionTree() completes the sibling commands after help", () => {
  const tree = completionTree(sampleTree());
  assert.deepEqual(child(tree, "help").args[0].choices, ["config", "calendar", "it's"]);
  assert.deepEqual(child(child(tree, "config"), "help").args[0].choices, ["get", "set"]);
  // The help command has no --help of its own, but still takes the global flags.
  const helpFlags = child(tree, "help").flags.flatMap((f) => f.names);
  assert.ok(!helpFlags.includes("--help"));
  assert.ok(helpFlags.includes("--json"));
});

Deno.test("completionTree() reads the choices of arguments", () => {
  const ctx = createTestContext({});
  const root = sampleTree();
  root.addCommand(completionCommand(ctx, () => root) as unknown as CommandUnknownOpts);
  const completion = child(completionTree(root), "completion");
  assert.deepEqual(completion.args, [{
    choices: ["bash", "zsh", "fish"],
    files: false,
    variadic: false,
  }]);
});

Deno.test("shellQuote() and fishQuote() keep any text literal", () => {
  assert.equal(shellQuote("+agenda"), "'+agenda'");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.equal(shellQuote("$(x) `y`"), "'$(x) `y`'");
  assert.equal(fishQuote("it's"), `'it\\'s'`);
  assert.equal(fishQuote("a\\b"), `'a\\\\b'`);
});

Deno.test("completionScript('bash') registers a function holding the whole tree", () => {
  const script = completionScript("bash", sampleTree());
  assert.match(script, /^# bash completion for hark/);
  assert.match(script, /\ncomplete -F _hark 'hark'\n$/);
  assert.ok(script.includes("\n    'hark calendar')\n      __hark_vals+=('+agenda' 'help')\n"));
  assert.match(script, /'config'\|'cfg'\) __hark_next='config' ;;/);
  assert.ok(script.includes(`'it'\\''s'`));
  assert.ok(script.includes(`'say "hi" it'\\''s $HOME'`));
  assert.ok(script.includes(`'--view') __hark_add "$3" 'day' 'week' ;;`));
  assert.ok(script.includes(`'#'*) __hark_files=1 ;;`));
  assert.ok(!script.includes("secret"));
});

Deno.test("completionScript('zsh') is a #compdef file that also works when sourced", () => {
  const script = completionScript("zsh", sampleTree());
  assert.equal(script.split("\n")[0], "#compdef hark");
  assert.ok(script.includes("compdef _hark 'hark'"));
  assert.ok(script.includes('_hark "$@"'));
  assert.ok(script.includes("emulate -L zsh"));
  assert.ok(script.includes(`'hark calendar +agenda'`));
});

Deno.test("completionScript('fish') feeds one function to complete", () => {
  const script = completionScript("fish", sampleTree());
  assert.match(script, /^# fish completion for hark/);
  assert.ok(script.includes("complete -c 'hark' -e\ncomplete -c 'hark' -f -a '(__hark_complete)'"));
  assert.ok(script.includes(`'it\\'s'`));
  assert.ok(script.includes(`test "$argv[1]" = 'hark calendar +agenda'`));
});

Deno.test("completionScript() names its functions after the program", () => {
  const root = new Command("my-cli").option("--x") as unknown as CommandUnknownOpts;
  assert.ok(completionScript("bash", root).includes("complete -F _my_cli 'my-cli'"));
  assert.ok(completionScript("zsh", root).startsWith("#compdef my-cli\n"));
  assert.ok(completionScript("fish", root).includes("function __my_cli_candidates"));
});

function rootWithCompletion() {
  const ctx = createTestContext({});
  const root = sampleTree();
  const completion = completionCommand(ctx, () => root) as unknown as CommandUnknownOpts;
  completion.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} });
  root.addCommand(completion);
  return { ctx, root };
}

Deno.test("hark completion <shell> prints the script of that shell for the whole tree", async () => {
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const { ctx, root } = rootWithCompletion();
    await root.parseAsync(["completion", shell], { from: "user" });
    assert.equal(ctx.stdout.text(), completionScript(shell, root));
    assert.ok(ctx.stdout.text().includes("'completion'"));
  }
});

Deno.test("hark completion rejects an unknown shell", async () => {
  const { ctx, root } = rootWithCompletion();
  await assert.rejects(
    root.parseAsync(["completion", "tcsh"], { from: "user" }),
    (error) => error instanceof CommanderError && error.code === "commander.invalidArgument",
  );
  assert.equal(ctx.stdout.text(), "");
});
