/**
 * Loads the scripts of `hark completion bash|zsh|fish` in the real shells and asks them for
 * completions, the way the shell does when the user presses Tab.
 *
 * bash: the completion function is called with COMP_WORDS / COMP_CWORD set. zsh: `_hark` runs
 * with `words` / `CURRENT` set and a stand-in `compadd` (the builtin only works inside a
 * completion widget, which needs a terminal), both sourced after compinit and autoloaded from
 * $fpath. fish: `complete -C` prints what fish would offer.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { buildRoot } from "../../src/cli/root.ts";
import { catalogueRef } from "../../src/cli/catalogue/catalogue_ref.ts";
import { createTestContext } from "../support/test_context.ts";
import type { CommandSpec } from "../../src/cli/command_spec.ts";
import { loadCommandTree, type TreeNode } from "../../src/cli/command_tree.ts";
import type { Shell } from "../../src/cli/completion/completion.ts";
import { fishQuote, shellQuote } from "../../src/cli/completion/model.ts";
import { completionScript } from "../../src/cli/completion/script.ts";
import { denoDirEnv } from "../support/hark_env.ts";
import { harkCommandLine } from "../support/terminal.ts";
import { requires } from "../support/requires.ts";

/**
 * zsh and fish come from Debian packages (`requires` skips a test whose shell is missing); on
 * macOS and Windows CI these tests are skipped.
 */
const LINUX = Deno.build.os === "linux";

/** A command line being completed; the last word is the one under the cursor. */
type Words = string[];

const MARK = "@@case ";

/** The real tree, with the API catalogue this checkout generated. */
function realRoot(): CommandSpec {
  return buildRoot(undefined, catalogueRef(createTestContext()));
}

const noop = () => Promise.resolve();

/** A small tree with awkward names: quotes, `$( )`, `+verbs`, file values. */
function awkwardRoot(): CommandSpec {
  return {
    name: "hark",
    description: "root",
    flags: [{
      name: "format",
      value: "<format>",
      description: "output format",
      choices: ["table", "json", "csv"],
    }],
    commands: [
      {
        name: "it's",
        description: `it's "quoted" $HOME`,
        commands: [
          { name: "+do", description: "do it", run: noop },
          { name: "$(touch${IFS}pwned)", description: "`touch pwned`", run: noop },
        ],
      },
      {
        name: "calendar",
        description: "calendar",
        commands: [{
          name: "+agenda",
          description: "agenda",
          flags: [
            { name: "view", value: "<view>", description: "the view", choices: ["day", "week"] },
            { name: "file", value: "<file>", description: "a file" },
          ],
          args: [{ name: "dir", description: "a folder", required: false }],
          run: noop,
        }],
      },
    ],
  };
}

/**
 * A folder with a `hark` that runs hark from source: the scripts ask it (`hark __complete`) for
 * the API words they do not hold.
 */
const HARK_BIN = await Deno.makeTempDir({ prefix: "hark-completion-bin-" });
await Deno.writeTextFile(join(HARK_BIN, "hark"), `#!/bin/sh\nexec ${harkCommandLine()} "$@"\n`, {
  mode: 0o755,
});
globalThis.addEventListener("unload", () => Deno.removeSync(HARK_BIN, { recursive: true }));

async function run(
  shell: Shell,
  args: string[],
  dir: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(shell, {
    args,
    cwd: dir,
    clearEnv: true,
    env: {
      ...denoDirEnv(),
      HOME: dir,
      // Two profiles, for completing --profile and profile use (asked of hark __complete).
      HARK_CONFIG: join(dir, "config.json"),
      PATH: `${HARK_BIN}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      TERM: "dumb",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** Splits harness output into the candidates of each case (the part before a tab). */
function parseCases(stdout: string, count: number): string[][] {
  const results: string[][] = [];
  for (const line of stdout.split("\n")) {
    if (line.startsWith(MARK)) results.push([]);
    else if (line !== "" && results.length > 0) results.at(-1)!.push(line.split("\t")[0]);
  }
  assert.equal(results.length, count, `expected ${count} cases in:\n${stdout}`);
  return results.map((r) => r.sort());
}

/** A temp dir (HOME and cwd) with two files for file-name completion. */
async function tempDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "hark-completion-" });
  await Deno.writeTextFile(join(dir, "notes.txt"), "");
  await Deno.writeTextFile(join(dir, "nothing.md"), "");
  await Deno.writeTextFile(
    join(dir, "config.json"),
    JSON.stringify({ apps: { work: {}, default: {} } }),
    { mode: 0o600 },
  );
  return dir;
}

async function completeBash(root: CommandSpec, cases: Words[]): Promise<string[][]> {
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(join(dir, "hark.bash"), await completionScript("bash", root));
    const harness = [
      `source ${shellQuote(join(dir, "hark.bash"))}`,
      "spec=$(complete -p hark) || exit 3",
      "fn=${spec#*-F }; fn=${fn%% *}",
      "t() {",
      '  COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))',
      '  COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()',
      '  "$fn" hark "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
      '  (( ${#COMPREPLY[@]} )) && printf "%s\\n" "${COMPREPLY[@]}"',
      "  return 0",
      "}",
      ...cases.map((words, i) => `echo '${MARK}${i}'; t ${words.map(shellQuote).join(" ")}`),
    ].join("\n");
    await Deno.writeTextFile(join(dir, "harness.bash"), harness);
    const result = await run("bash", ["--norc", "--noprofile", join(dir, "harness.bash")], dir);
    assert.equal(result.stderr, "");
    assert.equal(result.code, 0);
    assert.equal(await exists(join(dir, "pwned")), false, "a command name was executed");
    return parseCases(result.stdout, cases.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** How zsh gets the script: sourced after compinit, or autoloaded from $fpath. */
type ZshMode = "source" | "fpath";

async function completeZsh(
  root: CommandSpec,
  cases: Words[],
  mode: ZshMode,
): Promise<string[][]> {
  const dir = await tempDir();
  try {
    await Deno.mkdir(join(dir, "functions"));
    const script = join(dir, "functions", "_hark");
    await Deno.writeTextFile(script, await completionScript("zsh", root));
    const harness = [
      ...(mode === "fpath" ? [`fpath=(${shellQuote(join(dir, "functions"))} $fpath)`] : []),
      `autoload -U compinit && compinit -u -d ${shellQuote(join(dir, ".zcompdump"))}`,
      ...(mode === "source" ? [`source ${shellQuote(script)}`] : []),
      '[[ ${_comps[hark]} == _hark ]] || { print -u2 "hark is not registered"; exit 3 }',
      // Stand-ins for the completion builtins: print what would be offered.
      "compadd() {",
      "  local arr c",
      "  while (( $# )); do",
      "    case $1 in -a|-d) [[ $1 == -a ]] && arr=$2; shift 2 ;; *) shift ;; esac",
      "  done",
      '  for c in "${(P@)arr}"; do',
      '    [[ ${c[1,${#PREFIX}]} == "$PREFIX" ]] && print -r -- "$c"',
      "  done",
      "  return 0",
      "}",
      "_files() { print -r -- '@files' }",
      't() { words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}; _hark }',
      ...cases.map((words, i) => `print '${MARK}${i}'; t ${words.map(shellQuote).join(" ")}`),
      "exit 0", // _hark fails when it offers nothing, as zsh expects
    ].join("\n");
    await Deno.writeTextFile(join(dir, "harness.zsh"), harness);
    const result = await run("zsh", ["-f", join(dir, "harness.zsh")], dir);
    assert.equal(result.stderr, "");
    assert.equal(result.code, 0);
    assert.equal(await exists(join(dir, "pwned")), false, "a command name was executed");
    return parseCases(result.stdout, cases.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A fish command-line token for a word. */
function fishToken(word: string): string {
  return /^[\w+=.,/:@-]*$/.test(word) ? word : fishQuote(word);
}

async function completeFish(root: CommandSpec, cases: Words[]): Promise<string[][]> {
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(join(dir, "hark.fish"), await completionScript("fish", root));
    const harness = [
      `source ${fishQuote(join(dir, "hark.fish"))}`,
      ...cases.map((words, i) =>
        `echo '${MARK}${i}'; complete -C ${fishQuote(words.map(fishToken).join(" "))}`
      ),
    ].join("\n");
    await Deno.writeTextFile(join(dir, "harness.fish"), harness);
    const result = await run("fish", ["--no-config", join(dir, "harness.fish")], dir);
    assert.equal(result.stderr, "");
    assert.equal(result.code, 0);
    assert.equal(await exists(join(dir, "pwned")), false, "a command name was executed");
    return parseCases(result.stdout, cases.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** An expectation: exactly these candidates, or at least these. */
interface Expect {
  words: Words;
  exactly?: string[];
  includes?: string[];
}

const GLOBAL_FLAGS = ["--json", "--format", "--profile", "--as", "--dry-run", "--no-color"];

/** The cases every shell must answer the same way on the real tree. */
async function realCases(root: CommandSpec): Promise<Expect[]> {
  const cases: Expect[] = [
    { words: ["hark", ""], includes: ["config", "profile", "completion", "help"] },
    { words: ["hark", "conf"], exactly: ["config"] },
    { words: ["hark", "config", ""], includes: ["get", "set"] },
    { words: ["hark", "profile", ""], includes: ["list", "use", "remove"] },
    { words: ["hark", "config", "get", "--"], includes: [...GLOBAL_FLAGS, "--help"] },
    { words: ["hark", "--format", ""], exactly: ["csv", "json", "ndjson", "table"] },
    { words: ["hark", "--as", ""], exactly: ["bot", "user"] },
    { words: ["hark", "config", "get", "--format", "j"], exactly: ["json"] },
    { words: ["hark", "completion", ""], exactly: ["bash", "fish", "zsh"] },
    { words: ["hark", "--profile", "work", "config", "s"], exactly: ["set"] },
    { words: ["hark", "profile", "rm", "--y"], exactly: ["--yes"] },
    { words: ["hark", "help", "pro"], exactly: ["profile"] },
    { words: ["hark", "--profile", ""], exactly: ["default", "work"] },
    { words: ["hark", "profile", "use", "w"], exactly: ["work"] },
    { words: ["hark", "calendar", "+rsvp", "--status", "t"], exactly: ["tentative"] },
    { words: ["hark", "config", "get", "pre"], includes: ["preferences.color"] },
  ];
  // Every command of the tree, so commands added later are covered too.
  const visit = (node: TreeNode) => {
    const subs = node.commands;
    if (subs.length > 0) {
      cases.push({ words: [...node.path, ""], includes: subs.map((c) => c.spec.name) });
    }
    const own = (node.spec.flags ?? []).map((f) => f.negated ? `--no-${f.name}` : `--${f.name}`);
    cases.push({ words: [...node.path, "--"], includes: [...own, ...GLOBAL_FLAGS] });
    subs.forEach(visit);
  };
  visit(await loadCommandTree(root));
  return cases;
}

/**
 * The cases of the API commands, which the scripts ask `hark __complete` for (issue 24): API
 * services beside the static commands, a service's resources, a resource's methods, a method's
 * flags and choices; a shortcut verb is still completed from the script alone.
 */
const API_CASES: Expect[] = [
  { words: ["hark", "do"], includes: ["docs", "docx"] },
  { words: ["hark", "co"], includes: ["config", "contact", "completion", "corehr"] },
  { words: ["hark", "docx", ""], includes: ["document", "document-block", "help"] },
  { words: ["hark", "docx", "document", "cr"], exactly: ["create"] },
  { words: ["hark", "calendar", "ev"], exactly: ["event-attendees", "events"] },
  { words: ["hark", "calendar", "+ag"], exactly: ["+agenda"] },
  {
    words: ["hark", "calendar", "events", "instance-view", "--user-"],
    exactly: ["--user-id-type"],
  },
  {
    words: ["hark", "calendar", "events", "instance-view", "--user-id-type", ""],
    exactly: ["open_id", "union_id", "user_id"],
  },
  { words: ["hark", "--as", "bot", "im", "messages", "cr"], exactly: ["create"] },
];

/**
 * The API cases zsh and fish answer too: the words asked of `hark __complete` are the same in
 * every shell (bash answers all of {@link API_CASES}), so these check each script's way of asking
 * and of offering the answer (a service beside static commands, a method, a flag's choices, after
 * a global flag) with a Deno start-up apiece fewer.
 */
const API_SAMPLE: Expect[] = [
  API_CASES[1], // hark co
  API_CASES[3], // hark docx document cr
  API_CASES[5], // hark calendar +ag (from the script alone)
  API_CASES[7], // hark calendar events instance-view --user-id-type
  API_CASES[8], // hark --as bot im messages cr
];

/** The cases on the awkward tree; `files` is what a file-name completion of "no" gives. */
function awkwardCases(files: string[]): Expect[] {
  return [
    { words: ["hark", ""], exactly: ["calendar", "help", "it's"] },
    { words: ["hark", "it's", ""], exactly: ["$(touch${IFS}pwned)", "+do", "help"] },
    { words: ["hark", "it's", "+"], exactly: ["+do"] },
    { words: ["hark", "calendar", ""], exactly: ["+agenda", "help"] },
    { words: ["hark", "calendar", "+agenda", "--view", ""], exactly: ["day", "week"] },
    { words: ["hark", "calendar", "+agenda", "--file", "no"], exactly: files },
    { words: ["hark", "calendar", "+agenda", "no"], exactly: files },
    { words: ["hark", "it's", "--", "--"], exactly: [] },
  ];
}

function check(shell: string, expects: Expect[], results: string[][]): void {
  expects.forEach((expect, i) => {
    const got = results[i];
    const what = `${shell}: "${expect.words.join(" ")}<TAB>" offered [${got.join(", ")}]`;
    if (expect.exactly) assert.deepEqual(got, [...expect.exactly].sort(), what);
    for (const word of expect.includes ?? []) assert.ok(got.includes(word), `${what}; no ${word}`);
  });
}

Deno.test({
  name: "bash completes commands, sub-commands, flags and values of the real tree",
  ignore: !LINUX,
}, async () => {
  const root = realRoot();
  const expects: Expect[] = [
    ...(await realCases(root)),
    // bash splits --format=value into --format, = and value.
    { words: ["hark", "--format", "=", ""], exactly: ["csv", "json", "ndjson", "table"] },
    { words: ["hark", "--format", "=", "c"], exactly: ["csv"] },
    { words: ["hark", "--format", "=", "csv", "conf"], exactly: ["config"] },
    ...API_CASES,
  ];
  check("bash", expects, await completeBash(root, expects.map((e) => e.words)));
});

Deno.test(
  { name: "bash completes awkward names literally, +verbs and file names", ignore: !LINUX },
  async () => {
    const expects = awkwardCases(["nothing.md", "notes.txt"]);
    check("bash", expects, await completeBash(awkwardRoot(), expects.map((e) => e.words)));
  },
);

Deno.test(
  requires(["zsh"], { name: "zsh reads the script without errors", ignore: !LINUX }),
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "hark-completion-" });
    try {
      const path = join(dir, "_hark");
      await Deno.writeTextFile(path, await completionScript("zsh", realRoot()));
      const result = await run("zsh", ["-n", path], dir);
      assert.equal(result.stderr, "");
      assert.equal(result.code, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

for (const mode of ["source", "fpath"] as const) {
  Deno.test(
    requires(["zsh"], {
      name: `zsh completes the real tree (script ${mode === "source" ? "sourced" : "autoloaded"})`,
      ignore: !LINUX,
    }),
    async () => {
      const root = realRoot();
      // Sourced, the script answers every case; autoloaded, the same function answers, so a
      // few cases show that loading it from $fpath works (a static word, a value, a flag, a
      // word asked of hark) without running the whole tree through zsh twice.
      const expects: Expect[] = mode === "source"
        ? [
          ...(await realCases(root)),
          { words: ["hark", "--format=c"], exactly: ["--format=csv"] },
          { words: ["hark", "--format=csv", "conf"], exactly: ["config"] },
          ...API_SAMPLE,
        ]
        : [
          { words: ["hark", "config", ""], includes: ["get", "set"] },
          { words: ["hark", "--format=c"], exactly: ["--format=csv"] },
          { words: ["hark", "profile", "rm", "--y"], exactly: ["--yes"] },
          { words: ["hark", "--profile", ""], exactly: ["default", "work"] },
          { words: ["hark", "docx", "document", "cr"], exactly: ["create"] },
        ];
      check(`zsh (${mode})`, expects, await completeZsh(root, expects.map((e) => e.words), mode));
    },
  );
}

Deno.test(
  requires(["zsh"], {
    name: "zsh completes awkward names literally, +verbs and file names",
    ignore: !LINUX,
  }),
  async () => {
    const expects = awkwardCases(["@files"]);
    check("zsh", expects, await completeZsh(awkwardRoot(), expects.map((e) => e.words), "source"));
  },
);

Deno.test(
  requires(["fish"], {
    name: "fish completes commands, sub-commands, flags and values of the real tree",
    ignore: !LINUX,
  }),
  async () => {
    const root = realRoot();
    const expects: Expect[] = [
      ...(await realCases(root)),
      { words: ["hark", "--format=c"], exactly: ["--format=csv"] },
      { words: ["hark", "--format=csv", "conf"], exactly: ["config"] },
      ...API_SAMPLE,
    ];
    check("fish", expects, await completeFish(root, expects.map((e) => e.words)));
  },
);

Deno.test(
  requires(["fish"], {
    name: "fish completes awkward names literally, +verbs and file names",
    ignore: !LINUX,
  }),
  async () => {
    const expects = awkwardCases(["nothing.md", "notes.txt"]);
    check("fish", expects, await completeFish(awkwardRoot(), expects.map((e) => e.words)));
  },
);
