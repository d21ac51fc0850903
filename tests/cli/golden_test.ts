/**
 * Golden files of everything the command tree prints about itself: `--help` of every command and
 * the three completion scripts. A change to either shows as a diff of `tests/golden/`. Regenerate
 * after an intended change with `UPDATE_GOLDEN=1 deno test -A tests/cli/golden_test.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../../src/cli/run_cli.ts";
import { createTestContext } from "../support/test_context.ts";

const GOLDEN = fileURLToPath(new URL("../golden/", import.meta.url));
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

/** Runs hark in-process with a context that has no config and no terminal. */
async function hark(argv: string[]): Promise<string> {
  const ctx = createTestContext({ env: { HARK_CONFIG: "/nonexistent/hark/config.json" } });
  const outcome = await runCli(ctx, argv);
  assert.equal(outcome.code, 0, `hark ${argv.join(" ")}: ${outcome.error?.message}`);
  return ctx.stdout.text();
}

async function matchGolden(name: string, actual: string): Promise<void> {
  const path = join(GOLDEN, name);
  if (UPDATE) {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(path);
  } catch {
    throw new Error(`No golden file ${name}: run with UPDATE_GOLDEN=1 to create it`);
  }
  assert.equal(actual, expected, `${name} differs from its golden file`);
}

interface Described {
  name: string;
  commands?: Described[];
  shortcuts?: { name: string }[];
}

/** Every command path, from `hark schema`. */
async function commandPaths(): Promise<string[][]> {
  const schema = JSON.parse(await hark(["schema"])) as {
    commands: Described[];
    services: Described[];
  };
  const paths: string[][] = [[]];
  const walk = (command: Described) => {
    paths.push(command.name.split(" "));
    for (const sub of command.commands ?? []) walk(sub);
  };
  for (const command of schema.commands) walk(command);
  // The shortcut services; of the API services, resources and methods (generated from the
  // catalogue, tested over all in tests/catalogue/) a few stand for the rest.
  for (const service of schema.services.filter((s) => (s.shortcuts ?? []).length > 0)) {
    paths.push([service.name]);
    for (const shortcut of service.shortcuts ?? []) paths.push(shortcut.name.split(" "));
  }
  return [...paths, ...API_HELP];
}

/**
 * The API commands whose help has a golden file: a service's listing of its resources and their
 * method names only. A resource's help (its methods' titles) and a method's help (its
 * description) quote the package's text, which the repository must not hold, so they are
 * checked over every resource and method in tests/catalogue/ instead.
 */
const API_HELP = [
  ["docx"],
];

Deno.test("--help of every command matches its golden file", async () => {
  const paths = await commandPaths();
  assert.ok(paths.length > 20, `only ${paths.length} commands found`);
  for (const path of paths) {
    const name = path.length === 0 ? "hark" : `hark ${path.join(" ")}`;
    await matchGolden(`help/${name.replaceAll(" ", "_")}.txt`, await hark([...path, "--help"]));
  }
});

for (const shell of ["bash", "zsh", "fish"]) {
  Deno.test(`the ${shell} completion script matches its golden file`, async () => {
    await matchGolden(`completion/hark.${shell}`, await hark(["completion", shell]));
  });
}
