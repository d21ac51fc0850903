/**
 * Start-up does not pay for the API catalogue (issue 24): `--version`, `--help` and the
 * shortcuts read none of it, not even its index; an API command reads the index and the part
 * of its own resource only; `hark schema <id>` reads that part only.
 */

import assert from "node:assert/strict";
import { fixtureSource } from "../../../tests/support/catalogue_fixture.ts";
import { createTestContext } from "../../../tests/support/test_context.ts";
import { Catalogue } from "../../catalogue/catalogue.ts";
import { buildRoot } from "../root.ts";
import { runCli } from "../run_cli.ts";
import { catalogueRef } from "./catalogue_ref.ts";

/** What running `argv` read of the catalogue. */
async function reads(argv: string[]): Promise<string[]> {
  const source = fixtureSource();
  const ctx = createTestContext({ env: { HARK_CONFIG: "/nonexistent/hark/config.json" } });
  const outcome = await runCli(
    ctx,
    argv,
    buildRoot(undefined, catalogueRef(new Catalogue(source))),
  );
  assert.equal(outcome.code, 0, `${argv.join(" ")}: ${outcome.error}`);
  return source.reads;
}

Deno.test("--version, --help and the shortcuts read nothing of the catalogue", async () => {
  const cases = [
    ["--version"],
    ["--help"],
    [],
    ["calendar", "+agenda", "--help"],
    ["calendar", "+agenda", "--start", "2026-11-01", "--end", "2026-11-02", "--dry-run"],
    ["im", "+send", "--chat-id", "oc_1", "--text", "hi", "--dry-run"],
    ["auth", "--help"],
    ["completion", "bash"],
  ];
  for (const argv of cases) assert.deepEqual(await reads(argv), [], argv.join(" "));
});

Deno.test("an API command reads the index and its own resource's part only", async () => {
  assert.deepEqual(
    await reads(["docx", "document", "create", "--title", "t", "--as", "bot", "--dry-run"]),
    ["index", "docx_v1.document"],
  );
  assert.deepEqual(
    await reads(["calendar", "events", "list", "--calendar-id", "c", "--dry-run"]),
    ["index", "calendar_v4.calendarEvent"],
  );
  // A service's help lists its resources from the index; a resource's help its methods.
  assert.deepEqual(await reads(["docx", "--help"]), ["index"]);
  assert.deepEqual(await reads(["docx", "document", "--help"]), ["index", "docx_v1.document"]);
});
