import assert from "node:assert/strict";
import { join } from "node:path";
import {
  catalogueKey,
  catalogueLooksCurrent,
  ensureCatalogue,
  GENERATOR_SOURCES,
  inputsSeen,
  pinnedPackage,
  readStamp,
  REPO_ROOT,
} from "./ensure.ts";

/** A copy of the generator's inputs in a temp folder. */
async function copyInputs(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "hark-ensure-" });
  for (const path of ["deno.json", ...GENERATOR_SOURCES]) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.copyFile(join(REPO_ROOT, path), join(root, path));
  }
  return root;
}

Deno.test("catalogueKey() changes with the pin and with every generator source", async () => {
  const root = await copyInputs();
  try {
    const first = await catalogueKey(root);
    assert.equal(await catalogueKey(root), first);
    const config = join(root, "deno.json");
    const text = await Deno.readTextFile(config);
    await Deno.writeTextFile(config, text.replace(/lark-mcp@[\d.]+"/, 'lark-mcp@9.9.9"'));
    const bumped = await catalogueKey(root);
    assert.notEqual(bumped, first);
    await Deno.writeTextFile(join(root, GENERATOR_SOURCES[1]), "// changed\n", { append: true });
    assert.notEqual(await catalogueKey(root), bumped);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("pinnedPackage() wants an exact version of the package", async () => {
  const root = await copyInputs();
  try {
    assert.match(await pinnedPackage(root), /^npm:@larksuiteoapi\/lark-mcp@\d+\.\d+\.\d+$/);
    const config = join(root, "deno.json");
    const text = await Deno.readTextFile(config);
    await Deno.writeTextFile(config, text.replace(/lark-mcp@[\d.]+"/, 'lark-mcp@^0.5"'));
    await assert.rejects(
      pinnedPackage(root),
      /must map "@larksuiteoapi\/lark-mcp" to an exact version/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("ensureCatalogue() finds the catalogue current without regenerating it", async () => {
  // The test task generated it first (this makes sure); a second check changes nothing.
  await ensureCatalogue({ quiet: true });
  const before = await readStamp();
  const result = await ensureCatalogue({ quiet: true });
  assert.equal(result.status, "fresh");
  assert.deepEqual(await readStamp(), before);
  assert.equal(before?.key, await catalogueKey());
  assert.deepEqual(before?.inputs, await inputsSeen());
});

/** What `deno info --json` says of a module graph: its modules and their imports. */
interface DenoInfo {
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
}

/** `deno info --json` of a file of the repository. */
async function denoInfo(path: string): Promise<DenoInfo> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", path],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

Deno.test("GENERATOR_SOURCES lists every module of ours the generator loads", async () => {
  const info = await denoInfo("scripts/gen_catalogue.ts");
  const root = new URL(`file://${REPO_ROOT}`).href;
  const ours = info.modules.map((m) => m.specifier)
    .filter((s) => s.startsWith(root)).map((s) => s.slice(root.length).replace(/^\//, ""))
    // The key's own code decides nothing about the catalogue's content.
    .filter((path) => !/^scripts\/catalogue\/(ensure|looks_current)\.ts$/.test(path));
  assert.deepEqual(ours.sort(), [...GENERATOR_SOURCES].sort());
});

Deno.test("catalogueLooksCurrent() trusts a stamp only while every input stats the same", async () => {
  const root = await copyInputs();
  const dir = join(root, "gen");
  try {
    assert.equal(catalogueLooksCurrent(root, dir), false, "no stamp");
    await Deno.mkdir(dir);
    const stamp = { key: await catalogueKey(root), inputs: await inputsSeen(root) };
    await Deno.writeTextFile(join(dir, "stamp.json"), JSON.stringify(stamp));
    assert.equal(catalogueLooksCurrent(root, dir), true);
    await Deno.writeTextFile(join(root, GENERATOR_SOURCES[0]), "// changed\n", { append: true });
    assert.equal(catalogueLooksCurrent(root, dir), false, "a changed source");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("deno task hark loads only the fast check before main.ts: ensure.ts when needed", async () => {
  const info = await denoInfo("scripts/hark_task.ts");
  const root = new URL(`file://${REPO_ROOT}`).href.replace(/\/?$/, "/");
  const importsOf = (path: string, dynamic: boolean) =>
    (info.modules.find((m) => m.specifier === root + path)?.dependencies ?? [])
      .filter((d) => (d.isDynamic === true) === dynamic)
      .map((d) => d.code?.specifier.slice(root.length)).sort();
  assert.deepEqual(importsOf("scripts/hark_task.ts", false), [
    "scripts/catalogue/looks_current.ts",
  ]);
  assert.deepEqual(importsOf("scripts/hark_task.ts", true), [
    "main.ts",
    "scripts/catalogue/ensure.ts",
  ]);
  assert.deepEqual(importsOf("scripts/catalogue/looks_current.ts", false), []);
});
