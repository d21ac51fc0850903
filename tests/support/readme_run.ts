/**
 * Runs the README's examples (for `tests/readme_test.ts` and `tests/readme_quick_start_test.ts`,
 * which split the blocks between them so that their sign-ins, each waiting the device flow's
 * first 5 s poll, run in two test files at once): every line of its `sh` code blocks that runs
 * hark is run, as printed, by `sh` against a sandbox, with `hark` on `PATH` standing for the CLI from source.
 * The README's example values stand for real ones (an app id, a chat, a device code, a token):
 * {@link substitutions} swaps them for the sandbox's, and nothing else is changed. The sandbox
 * approves every sign-in at its first poll, standing in for the person who would. Lines that
 * cannot run here are listed in {@link NOT_RUN} with the reason; a README line that is neither run
 * nor listed fails the test, and so does a listed line that is no longer in the README.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Sandbox, startSandbox } from "../../sandbox/mod.ts";
import { createHarkEnv, type HarkEnv, REPO_ROOT } from "./hark_env.ts";
import { harkCommandLine } from "./terminal.ts";

/** Lines not run, by their command (the line without its comment), with the reason. */
const NOT_RUN: Record<string, string> = {
  "npx -y deno@2.9.6 task demo": "the README's first command; tests/demo_test.ts runs the demo",
  "npx -y deno@2.9.6 task test": "the README's second command: the test suite this test is in",
  "hark config init":
    "asks its questions on a terminal; tests/cli/config_init_interactive_test.ts " +
    "answers them in tmux (here the config it writes is written for it, pointing at the sandbox)",
  "sha256sum --ignore-missing -c SHA256SUMS": "needs a release's files from GitHub",
  "install -m 0755 hark-x86_64-unknown-linux-gnu ~/.local/bin/hark": "needs a release's binary",
  "deno task sandbox --port 8080": "runs until stopped; the tests start the sandbox themselves",
  "deno task install": "writes to ~/.local/bin; tests/install_test.ts installs into a temporary " +
    "prefix and runs the launcher",
  "deno task sandbox --port 8080 --auto-approve-after 1":
    "runs until stopped; tests/readme_sandbox_test.ts runs it as printed, then the section's " +
    "other lines in a terminal",
  "hark config init --profile sandbox --app-id cli_sandbox --base-url http://127.0.0.1:8080 --output-format auto":
    "asks for the app secret at a terminal; tests/readme_sandbox_test.ts answers it in tmux",
  "deno task hark --help": "a development task; tests/cli/golden_test.ts checks the help",
  "deno task test": "the test suite this test is in",
  "deno task check && deno task lint && deno task fmt": "run by CI (.ci/run) on every change",
  "deno task bench": "benchmarks take minutes; bench/run_test.ts checks the runner",
  "deno task catalogue": "the test task generated the catalogue first; " +
    "scripts/gen_catalogue_test.ts tests the generator",
};

/** One `sh` block of the README. */
export interface Block {
  /** The heading above it. */
  section: string;
  /** The last line of text before it. */
  lead: string;
  lines: string[];
}

/** The README's `sh` code blocks. */
function shellBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  let section = "";
  let lead = "";
  let current: Block | undefined;
  for (const line of readme.split("\n")) {
    if (current) {
      if (line.startsWith("```")) {
        blocks.push(current);
        current = undefined;
      } else if (line.trim() !== "") current.lines.push(line);
      continue;
    }
    if (line.startsWith("#")) section = line.replace(/^#+\s*/, "");
    else if (line.startsWith("```sh")) current = { section, lead, lines: [] };
    else if (line.trim() !== "" && !line.startsWith("```")) lead = line;
  }
  return blocks;
}

/** The command of a line: the line without a trailing `  # comment`. */
function commandOf(line: string): string {
  return line.replace(/\s+#\s.*$/, "").trim();
}

/** Whether a line runs hark: at its start, after `VAR=value` words, or after a pipe. */
function runsHark(command: string): boolean {
  return /(^|\|\s*|^(\S+=\S*\s+)+)hark(\s|$)/.test(command);
}

/** What a line's run must show, besides exit 0, keyed by the start of its command. */
interface RunContext {
  sb: Sandbox;
  home: HarkEnv;
  /** Values found by earlier lines (the device code). */
  found: Map<string, string>;
}

/** The README's example values and what stands for them here. */
function substitutions(context: RunContext): [string, () => string][] {
  const { sb, found } = context;
  const firstUser = sb.users[0].open_id;
  return [
    ["cli_a1b2c3", () => sb.appId],
    ["oc_123", () => sb.chats.find((c) => c.member_open_ids.includes(firstUser))!.chat_id],
    ["<device_code>", () => found.get("device_code")!],
    ["HARK_USER_ACCESS_TOKEN=…", () => `HARK_USER_ACCESS_TOKEN=${found.get("token")!}`],
    ["HARK_BASE_URL=https://open.feishu.cn", () => `HARK_BASE_URL=${sb.baseUrl}`],
  ];
}

async function sh(context: RunContext, bin: string, line: string) {
  const output = await new Deno.Command("sh", {
    args: ["-c", line],
    env: {
      ...context.home.env,
      PATH: `${bin}:${context.home.env.PATH}`,
      APP_SECRET: context.sb.appSecret,
    },
    clearEnv: true,
    cwd: context.home.dir,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** A fresh home whose config points at the sandbox, as `hark config init` would write it. */
async function freshHome(sb: Sandbox, configured: boolean): Promise<HarkEnv> {
  // The sandbox stands in for Lark's address: the user trusts it with secrets explicitly.
  const home = await createHarkEnv({ HARK_TRUSTED_ORIGINS: sb.baseUrl });
  if (configured) {
    await home.writeConfig({
      apps: {
        default: { app_id: sb.appId, app_secret: "@env:APP_SECRET", base_url: sb.baseUrl },
      },
    });
  }
  return home;
}

/**
 * Whether a block is the quick start's main one (its two sign-ins are the longest wait of all).
 *
 * @param block a block of the README
 */
export function isQuickStart(block: Block): boolean {
  return block.section === "Quick start" && !/without a terminal/i.test(block.lead);
}

/**
 * Runs, as steps of `t`, the lines of the README's blocks that `part` selects, each block in a
 * fresh home against one sandbox; then checks, over every block, that each line listed as not
 * run is still in the README and that each example value is still used.
 *
 * @param t the test
 * @param part which blocks to run
 */
export async function runReadmeBlocks(
  t: Deno.TestContext,
  part: (block: Block) => boolean,
): Promise<void> {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "README.md"));
  const all = shellBlocks(readme);
  const blocks = all.filter(part);
  assert.ok(blocks.length > 0, "no README block selected");
  const sb = await startSandbox({ quiet: true, autoApproveAfter: 0 });
  const bin = await Deno.makeTempDir({ prefix: "hark-readme-bin-" });
  await Deno.writeTextFile(join(bin, "hark"), `#!/bin/sh\nexec ${harkCommandLine()} "$@"\n`, {
    mode: 0o755,
  });
  const homes: HarkEnv[] = [];
  try {
    for (const block of blocks) {
      // Each block starts afresh, as its section reads: the quick start after `config init`,
      // the CI lines from nothing.
      const home = await freshHome(sb, !/without a terminal/i.test(block.lead));
      homes.push(home);
      const context: RunContext = { sb, home, found: new Map() };
      for (const line of block.lines) {
        const command = commandOf(line);
        if (command in NOT_RUN) continue;
        assert.ok(runsHark(command), `"${line}" (${block.section}): run it here or say why not`);
        let printed = line;
        for (const [example, value] of substitutions(context)) {
          if (printed.includes(example)) {
            printed = printed.replaceAll(example, value());
          }
        }
        await t.step(`${block.section}: ${line}`, async () => {
          let run = await sh(context, bin, printed);
          if (/^hark auth login( --scope \S+)?$/.test(command)) {
            // Without a terminal the sign-in starts for later (exit 75, pending); its error
            // names the step that finishes it, which the sandbox has approved meanwhile.
            assert.equal(run.code, 75, `${printed}\n${run.stdout}\n${run.stderr}`);
            const { device_code: code } = JSON.parse(run.stdout);
            assert.match(run.stderr, new RegExp(`hark auth login --device-code ${code}`));
            run = await sh(context, bin, `hark auth login --device-code ${code}`);
          }
          assert.equal(run.code, 0, `${printed}\n${run.stdout}\n${run.stderr}`);
          assert.doesNotMatch(run.stderr, /^error:/m, run.stderr);
          if (command.startsWith("hark auth login --no-wait --json")) {
            context.found.set("device_code", JSON.parse(run.stdout).device_code);
          }
          if (/hark config init --non-interactive/.test(command)) {
            // The README's app lives on Lark; here the sandbox stands in for Lark's address.
            const config = await home.readConfig() as {
              apps: Record<string, { base_url: string }>;
            };
            config.apps.default.base_url = sb.baseUrl;
            await home.writeConfig(config);
          }
          if (/^hark auth login( --device-code|$)/.test(command)) {
            const token = await sh(context, bin, "hark auth token");
            assert.equal(token.code, 0, token.stderr);
            context.found.set("token", token.stdout.trim());
          }
        });
      }
    }
    const commands = new Set(all.flatMap((block) => block.lines.map(commandOf)));
    const stale = Object.keys(NOT_RUN).filter((command) => !commands.has(command));
    assert.deepEqual(stale, [], "lines listed as not run are no longer in the README");
    const lines = all.flatMap((block) => block.lines).join("\n");
    const unused = substitutions({ sb, home: homes[0], found: new Map() })
      .map(([example]) => example).filter((example) => !lines.includes(example));
    assert.deepEqual(unused, [], "example values no longer in the README");
  } finally {
    for (const home of homes) await home.cleanup();
    await Deno.remove(bin, { recursive: true });
    await sb.close();
  }
}
