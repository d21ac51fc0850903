/**
 * Every method of the generated catalogue as an MCP tool: a name every MCP host accepts, unique,
 * and an input schema a strict JSON Schema validator compiles; the presets each name methods.
 */

import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { idsOfEntry, TOOL_NAME_PATTERN, TOOL_PRESETS } from "../../src/catalogue/tool_name.ts";
import { methodTool } from "../../src/mcp/method_tool.ts";
import { generatedCatalogue } from "../support/catalogue_samples.ts";

Deno.test("every catalogue method is a tool with a valid, unique name and a valid schema", async () => {
  const methods = await generatedCatalogue().allMethods();
  assert.ok(methods.length >= 1200, `${methods.length} methods`);
  const names = new Map<string, string>();
  const ajv = new Ajv2020({ strict: true });
  const compiled = new Set<string>();
  for (const method of methods) {
    const { tool } = methodTool(method, {});
    assert.match(tool.name, TOOL_NAME_PATTERN, method.id);
    const other = names.get(tool.name);
    assert.equal(other, undefined, `${method.id} and ${other} share the name ${tool.name}`);
    names.set(tool.name, method.id);
    // Checking against the meta-schema is fast; compiling (strict) is done for one tool a group.
    assert.ok(ajv.validateSchema(tool.inputSchema), `${method.id}: ${ajv.errorsText()}`);
    const group = method.id.split(".").slice(0, 2).join(".");
    if (!compiled.has(group)) {
      compiled.add(group);
      ajv.compile(tool.inputSchema);
    }
    assert.ok(tool.description.length > 0);
  }
  assert.equal(names.get("docx_v1_document_create"), "docx.v1.document.create");
  // Over 64 characters with its dots as underscores: the version goes.
  assert.equal(
    names.get("apaas_applicationRecordPermissionMember_batchCreateAuthorization"),
    "apaas.v1.applicationRecordPermissionMember.batchCreateAuthorization",
  );
});

Deno.test("every preset names methods of the catalogue", async () => {
  const index = await generatedCatalogue().index();
  const ids = index.services.flatMap((s) => s.resources.flatMap((r) => r.methods.map((m) => m.id)));
  for (const [preset, globs] of Object.entries(TOOL_PRESETS)) {
    for (const glob of globs) assert.ok(idsOfEntry(glob, ids).length > 0, `${preset}: ${glob}`);
  }
  assert.ok(idsOfEntry("task.v2.task.*", ids).includes("task.v2.task.create"));
  assert.ok(idsOfEntry("docs", ids).includes("wiki.v2.space.list"));
});
