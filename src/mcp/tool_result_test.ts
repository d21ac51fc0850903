import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { errorResult, successResult } from "./tool_result.ts";

Deno.test("successResult() summarises a dry run's previews; one that is not an object shows no method or URL, and no crash", () => {
  const result = successResult({
    command: "hark im +send",
    data: [{ method: "POST", url: "https://x/open-apis/im/v1/messages" }, null, "odd"],
    dryRun: true,
    warnings: [],
  });
  assert.equal(
    result.content[0].text,
    "Dry run of hark im +send: nothing was sent. It would send 3 requests: " +
      "POST https://x/open-apis/im/v1/messages; undefined undefined; undefined undefined.",
  );
});

Deno.test("successResult() gives an object as it is, a list as items, anything else as result", () => {
  const run = (data: unknown) =>
    successResult({ command: "hark x", data, dryRun: false, warnings: [] });
  assert.deepEqual(run({ message_id: "om_1" }).structuredContent, { message_id: "om_1" });
  assert.equal(run({ message_id: "om_1" }).content[0].text, "hark x: done (message_id om_1).");
  assert.deepEqual(run([1, 2]).structuredContent, { items: [1, 2] });
  assert.deepEqual(run("text").structuredContent, { result: "text" });
  assert.deepEqual(run(undefined).structuredContent, { result: null });
});

Deno.test("errorResult() carries the error envelope as structured content", () => {
  const result = errorResult(new ValidationError("Invalid argument", { param: "x" }), {
    helpCommand: "hark x --help",
  });
  assert.equal(result.isError, true);
  const error = result.structuredContent?.error;
  assert.ok(error && typeof error === "object" && "type" in error);
  assert.equal(error.type, "validation");
});
