/**
 * Many processes writing the config at once, while others read it: every read parses, no write
 * is lost, the file stays 0600 and no `.tmp` or `.lock` is left behind.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { denoDirEnv, REPO_ROOT } from "../support/hark_env.ts";
import { parseConfig } from "../../src/config/mod.ts";

const SCRIPT = fileURLToPath(new URL("./_config_writer.ts", import.meta.url));
const WRITERS = 8;
const WRITES_EACH = 10;
const READER_PROCESSES = 3;

function spawn(args: string[], configPath: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-write", "--allow-env", SCRIPT, ...args],
    cwd: REPO_ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HARK_CONFIG: configPath,
      HOME: dirname(configPath),
      DENO_NO_UPDATE_CHECK: "1",
      ...denoDirEnv(),
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function finish(child: Deno.ChildProcess): Promise<string> {
  const output = await child.output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  return new TextDecoder().decode(output.stdout);
}

Deno.test("concurrent writer processes lose no write and readers never see a torn file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-concurrency-" });
  try {
    const configPath = join(dir, "hark", "config.json");
    const stopFile = join(dir, "stop");
    await Deno.mkdir(join(dir, "hark"), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(configPath, '{"seed": true}\n', { mode: 0o600 });

    const readers = Array.from(
      { length: READER_PROCESSES },
      () => spawn(["read", stopFile], configPath),
    );
    // An in-process reader loop as well.
    let localReads = 0;
    const localFailures: string[] = [];
    let writing = true;
    const localReader = (async () => {
      while (writing) {
        try {
          parseConfig(await Deno.readTextFile(configPath), configPath);
          localReads++;
        } catch (error) {
          localFailures.push(String(error));
        }
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    })();

    const writers = Array.from(
      { length: WRITERS },
      (_, id) => spawn(["write", String(id), String(WRITES_EACH)], configPath),
    );
    const outputs = await Promise.all(writers.map(finish));
    writing = false;
    await localReader;
    await Deno.writeTextFile(stopFile, "");
    const readerResults = (await Promise.all(readers.map(finish))).map((out) => JSON.parse(out));

    assert.deepEqual(outputs, Array(WRITERS).fill("done\n"));
    for (const { reads, failures } of readerResults) {
      assert.deepEqual(failures, [], "every read by a reader process parsed");
      assert.ok(reads > 0, "each reader process read the file");
    }
    assert.deepEqual(localFailures, []);
    assert.ok(localReads > 0);

    const config = JSON.parse(await Deno.readTextFile(configPath));
    assert.equal(config.seed, true);
    for (let id = 0; id < WRITERS; id++) {
      for (let n = 0; n < WRITES_EACH; n++) {
        assert.deepEqual(
          { ...config[`w${id}_${n}`], padding: undefined },
          { writer: id, n, padding: undefined },
          `w${id}_${n} is present`,
        );
      }
    }
    assert.equal(Object.keys(config).length, 1 + WRITERS * WRITES_EACH);
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(configPath)).mode! & 0o777, 0o600);
    }
    const left: string[] = [];
    for await (const entry of Deno.readDir(join(dir, "hark"))) left.push(entry.name);
    assert.deepEqual(left, ["config.json"], "no .tmp or .lock left behind");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
