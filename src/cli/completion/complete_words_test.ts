import assert from "node:assert/strict";
import { fixtureSource } from "../../../tests/support/catalogue_fixture.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { Catalogue } from "../../catalogue/catalogue.ts";
import { catalogueRef } from "../catalogue/catalogue_ref.ts";
import { buildRoot } from "../root.ts";
import { runCli } from "../run_cli.ts";
import { completeWords } from "./complete_words.ts";

const root = () => buildRoot(undefined, catalogueRef(new Catalogue(fixtureSource())));
const values = async (words: string[]) => (await completeWords(root(), words)).map((c) => c.value);

Deno.test("completeWords() offers API services beside the commands, and their resources", async () => {
  assert.deepEqual(await values(["d"]), ["docx"]);
  assert.deepEqual(await values(["co"]), ["config", "contact", "completion"]);
  assert.deepEqual(await values(["docx", ""]), ["document", "help"]);
  assert.deepEqual(await values(["calendar", "ev"]), ["events"]);
  assert.deepEqual(await values(["calendar", "calendar-event", ""]), ["create", "list", "help"]);
});

Deno.test("completeWords() offers a method's flags and their choices, after global flags too", async () => {
  const flags = await values(["--as", "user", "calendar", "events", "list", "--p"]);
  assert.deepEqual(flags, ["--page-size", "--page-token", "--params", "--page-all", "--profile"]);
  assert.deepEqual(await values(["calendar", "events", "list", "--user-id-type", ""]), [
    "open_id",
    "user_id",
  ]);
  assert.deepEqual(await values(["calendar", "events", "list", "--user-id-type=u"]), [
    "--user-id-type=user_id",
  ]);
  assert.deepEqual(await values(["calendar", "events", "list", "--user-id-type", "=", "o"]), [
    "open_id",
  ]);
  assert.deepEqual(await values(["docx", "document", "create", "--title", "x", ""]), []);
});

Deno.test("hark __complete prints word<TAB>description lines and no help or error", async () => {
  const ctx = createTestContext({ env: { HARK_CONFIG: "/nonexistent/hark/config.json" } });
  const outcome = await runCli(ctx, ["__complete", "--", "docx", ""], root());
  assert.equal(outcome.code, 0);
  assert.equal(ctx.stdout.text(), "document\tMethod: create\nhelp\tdisplay help for command\n");
});

Deno.test("completeWords() offers a shortcut's allowed values and the well-known config keys", async () => {
  assert.deepEqual(await values(["calendar", "+rsvp", "--status", ""]), [
    "accept",
    "decline",
    "tentative",
  ]);
  assert.deepEqual(await values(["calendar", "+agenda", "--view", "w"]), ["week"]);
  assert.deepEqual(await values(["config", "get", "pref"]), [
    "preferences.output_format",
    "preferences.color",
  ]);
});

Deno.test("hark __complete --profiles prints the config's profile names, and nothing for a config it cannot read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-complete-test-" });
  try {
    const path = `${dir}/config.json`;
    const apps = { work: {}, default: {}, "bad name\u001b[2J": {} };
    await Deno.writeTextFile(path, JSON.stringify({ apps }));
    const ctx = createTestContext({ env: { HARK_CONFIG: path } });
    const outcome = await runCli(ctx, ["__complete", "--profiles"], root());
    assert.equal(outcome.code, 0);
    assert.equal(ctx.stdout.text(), "default\nwork\n");
    await Deno.writeTextFile(path, "{ not json");
    const broken = createTestContext({ env: { HARK_CONFIG: path } });
    assert.equal((await runCli(broken, ["__complete", "--profiles"], root())).code, 0);
    assert.equal(broken.stdout.text(), "");
    assert.equal(broken.stderr.text(), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
