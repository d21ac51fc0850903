/**
 * A generated corpus of more than 1,000 malformed invocations across every command, run in
 * process (seconds for the lot) and, for a sample, as real subprocesses: each ends with exit 2
 * or its documented code, prints one complete JSON envelope in JSON mode and no stack trace,
 * never exits 5, sends nothing over the network and leaves the config file untouched.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/run_cli.ts";
import { renderError } from "../../src/cli/render_error.ts";
import { buildRoot } from "../../src/cli/root.ts";
import { loadCommandTree } from "../../src/cli/command_tree.ts";
import { createTestContext } from "../support/test_context.ts";
import { createHarkEnv } from "../support/hark_env.ts";
import { sandboxConfig } from "../support/world.ts";
import { type BadCase, buildCorpus, CONTROL, type CorpusFiles } from "./_bad_input_corpus.ts";
import { assertEnvelope, assertNoTrace } from "./_envelope.ts";

/** An address where nothing listens: anything that reaches the network fails there. */
const NOWHERE = "http://127.0.0.1:9";

const CONFIG = sandboxConfig({ appId: "cli_bad_input", baseUrl: NOWHERE });

const ENV = {
  HARK_TEST_APP_SECRET: "bad-input-secret",
  HARK_USER_ACCESS_TOKEN: "u-bad-input",
  HARK_BASE_URL: NOWHERE,
};

async function prepare(): Promise<{ dir: string; configPath: string; files: CorpusFiles }> {
  const dir = await Deno.makeTempDir({ prefix: "hark-bad-input-" });
  const configPath = join(dir, "config", "config.json");
  await Deno.mkdir(join(dir, "config"), { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(configPath, JSON.stringify(CONFIG, null, 2), { mode: 0o600 });
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await Deno.writeTextFile(path, text);
    return path;
  };
  const files: CorpusFiles = {
    dir,
    missing: join(dir, "no-such-file.json"),
    notJson: await file("not.json", "limit: 5\n"),
    jsonArray: await file("array.json", "[1, 2, 3]"),
    empty: await file("empty.json", ""),
    badLimit: await file("bad-limit.json", JSON.stringify({ query: "a", limit: "many" })),
    badStart: await file("bad-start.json", JSON.stringify({ start: "2026-02-30" })),
    unknownField: await file("unknown.json", JSON.stringify({ query: "a", colour: "red" })),
  };
  return { dir, configPath, files };
}

function describe(c: BadCase): string {
  const shown = JSON.stringify(c.argv.map((a) => (a.length > 40 ? `${a.slice(0, 20)}…` : a)));
  return `${c.why}: hark ${shown}${c.env ? ` env ${JSON.stringify(c.env)}` : ""}`;
}

/** Runs one case in process; returns the failure, if any. */
async function runInProcess(c: BadCase, configPath: string, before: string): Promise<string[]> {
  const sent: string[] = [];
  const ctx = createTestContext({
    env: { HARK_CONFIG: configPath, ...ENV, ...c.env },
    stdin: c.stdin,
    fetch: (input) => {
      sent.push(input instanceof Request ? input.url : String(input));
      return Promise.reject(new TypeError("bad input must not reach the network"));
    },
  });
  const label = describe(c);
  const problems: string[] = [];
  try {
    const outcome = await runCli(ctx, ["--json", ...c.argv]);
    assert.deepEqual(sent, [], `${label}: sent requests`);
    assert.deepEqual(ctx.runs, [], `${label}: ran subprocesses`);
    assert.equal(outcome.code, c.code ?? 2, `${label}: exit ${outcome.code} ${outcome.error}`);
    assert.ok(outcome.error, `${label}: no error`);
    assert.equal(outcome.json, true, `${label}: not in JSON mode`);
    const stderr = renderError(outcome.error, { ...outcome, debug: false });
    const error = assertEnvelope(
      { code: outcome.code, stdout: ctx.stdout.text(), stderr: ctx.stderr.text() + stderr },
      label,
    );
    if (outcome.code === 2) assert.equal(error.type, "validation", `${label}: type`);
    // The readable form holds no stack trace either.
    assertNoTrace(renderError(outcome.error, { ...outcome, json: false, debug: false }), label);
    assert.equal(await Deno.readTextFile(configPath), before, `${label}: changed the config`);
  } catch (error) {
    problems.push((error as Error).message);
    // Keep later cases independent of this one.
    await Deno.writeTextFile(configPath, before);
  }
  return problems;
}

Deno.test("the bad-input corpus ends every invocation with exit 2 or its documented code", async (t) => {
  const { dir, configPath, files } = await prepare();
  try {
    const corpus = buildCorpus(await loadCommandTree(buildRoot()), files);
    console.log(`bad-input corpus: ${corpus.length} invocations`);
    assert.ok(corpus.length >= 1000, `only ${corpus.length} cases`);
    const before = await Deno.readTextFile(configPath);

    await t.step("in process, with a network that fails the test if used", async () => {
      const failures: string[] = [];
      for (const c of corpus) failures.push(...await runInProcess(c, configPath, before));
      assert.equal(
        failures.length,
        0,
        `${failures.length} of ${corpus.length} failed:\n${failures.slice(0, 20).join("\n\n")}`,
      );
    });

    await t.step("a sample as real subprocesses with --json", async () => {
      const home = await createHarkEnv(ENV);
      try {
        await Deno.mkdir(join(home.dir, "config"), { recursive: true });
        await Deno.writeTextFile(home.configPath, before, { mode: 0o600 });
        // The OS cannot pass NUL or a lone surrogate in argv; everything else goes as is.
        const passable = corpus.filter((c) =>
          !c.argv.some((a) => a.includes("\u0000")) &&
          !Object.values(c.env ?? {}).some((v) => v.includes("\u0000"))
        );
        const step = Math.floor(passable.length / 30);
        const sample = passable.filter((_, i) => i % step === 0).slice(0, 30);
        assert.ok(sample.some((c) => c.argv.some((a) => CONTROL.some((ch) => a.includes(ch)))));
        const failures: string[] = [];
        for (let i = 0; i < sample.length; i += 8) {
          await Promise.all(
            sample.slice(i, i + 8).map(async (c) => {
              // --json first: a case whose last flag lacks its value must not take it.
              const run = await home.run(["--json", ...c.argv], {
                env: c.env,
                stdin: c.stdin,
                timeoutMs: 20_000,
              });
              const label = `subprocess ${describe(c)}`;
              try {
                assert.equal(run.code, c.code ?? 2, `${label}: exit ${run.code} ${run.stderr}`);
                assertEnvelope(run, label);
                assert.equal(run.stdout, "", `${label}: stdout`);
              } catch (error) {
                failures.push((error as Error).message);
              }
            }),
          );
        }
        assert.equal(await Deno.readTextFile(home.configPath), before, "the config changed");
        assert.deepEqual(failures, [], failures.join("\n\n"));
      } finally {
        await home.cleanup();
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
