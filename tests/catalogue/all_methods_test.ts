/**
 * Every method of the generated catalogue, in one process: it is reachable by its command, its
 * flags are well formed, its help renders, and a request built from its schema's required values
 * is valid (the path filled, nothing refused).
 */

import assert from "node:assert/strict";
import { SHARED_SERVICE_COMMANDS, unusedLarkCliNames } from "../../scripts/catalogue/naming.ts";
import type { CatalogueMethod } from "../../src/catalogue/format.ts";
import { methodFlags } from "../../src/catalogue/method_flags.ts";
import { buildMethodRequest } from "../../src/catalogue/method_request.ts";
import { methodCommand, reservedFlagNames } from "../../src/cli/catalogue/method_command.ts";
import { renderHelp } from "../../src/cli/help.ts";
import { apiResourceCommands } from "../../src/cli/catalogue/api_commands.ts";
import { buildRoot } from "../../src/cli/root.ts";
import { generatedCatalogue, sampleInput } from "../support/catalogue_samples.ts";

const catalogue = generatedCatalogue();
const methods: CatalogueMethod[] = await catalogue.allMethods();
const index = await catalogue.index();

Deno.test("the catalogue reaches at least 1,200 methods, each once, from the index", () => {
  assert.ok(methods.length >= 1200, `${methods.length} methods`);
  const ids = methods.map((m) => m.id);
  assert.equal(new Set(ids).size, ids.length);
  const listed = index.services.flatMap((s) =>
    s.resources.flatMap((r) => r.methods.map((m) => `${s.name} ${r.name} ${m.name} ${m.id}`))
  );
  assert.deepEqual(
    listed.sort(),
    methods.map((m) => `${m.command.join(" ")} ${m.id}`).sort(),
    "the index names every method by its command",
  );
  assert.ok(index.leftOut.every((l) => l.id.startsWith("auth.v3.")), "only the token issuers");
  assert.deepEqual(unusedLarkCliNames(ids), [], "every lark-cli name matches a resource");
});

Deno.test("no API service takes the name of a hark command, and command words are kebab-case", () => {
  const taken = (buildRoot([]).commands ?? []).map((c) => c.name)
    .filter((n) => !SHARED_SERVICE_COMMANDS.includes(n));
  for (const service of index.services) {
    assert.ok(!taken.includes(service.name), service.name);
    for (
      const word of [service.name, ...service.resources.flatMap((r) => [r.name, ...r.aliases])]
    ) {
      assert.match(word, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    }
  }
  for (const method of methods) assert.match(method.command[2], /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
});

Deno.test("every method's flags are unique, kebab-case and clear of hark's own flags", () => {
  const reserved = reservedFlagNames();
  for (const method of methods) {
    const flags = methodFlags(method, reserved);
    const names = flags.map((f) => f.name);
    assert.equal(new Set(names).size, names.length, method.id);
    for (const name of names) {
      assert.ok(!reserved.has(name), `${method.id}: --${name}`);
      assert.match(name, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${method.id}: --${name}`);
    }
    const command = methodCommand(method);
    const all = (command.flags ?? []).map((f) => f.name);
    assert.equal(new Set(all).size, all.length, method.id);
    assert.ok(
      method.pathParams.every((p) =>
        names.includes(p.name.replace(/_/g, "-")) ||
        names.some((n) => n.endsWith(p.name.replace(/_/g, "-")))
      ),
      `${method.id}: a path flag`,
    );
  }
});

Deno.test("every method builds a valid request from its schema's required values", () => {
  for (const method of methods) {
    const request = buildMethodRequest(method, sampleInput(method));
    assert.equal(request.method, method.http, method.id);
    assert.match(request.path, /^\/open-apis\/[^:]*$/, method.id);
    for (const param of method.pathParams) {
      assert.ok(request.path.includes(`/${param.name}-1`), `${method.id}: ${param.name}`);
    }
  }
});

Deno.test("every method's help renders its flags, example and request", () => {
  const root = buildRoot([]);
  for (const method of methods) {
    const command = methodCommand(method);
    const [service, resource] = method.command;
    const chain = [
      root,
      { name: service, description: "" },
      { name: resource, description: "" },
      command,
    ] as const;
    const help = renderHelp(chain, []);
    const flat = help.replace(/\s+/g, " ");
    assert.ok(help.startsWith(`Usage: hark ${method.command.join(" ")} [options]`), method.id);
    assert.ok(flat.includes(`Request: ${method.http} ${method.path}`), method.id);
    assert.ok(help.includes(`  $ hark ${method.command.join(" ")}`), method.id);
  }
});

Deno.test("every resource's help lists each of its methods with its title", async () => {
  const root = buildRoot([]);
  const ref = () => Promise.resolve(catalogue);
  for (const service of index.services) {
    for (const resource of await apiResourceCommands(ref, service.name)) {
      const commands = await resource.loadCommands!();
      const help = renderHelp([root, { name: service.name, description: "" }, resource], commands);
      assert.ok(help.startsWith(`Usage: hark ${service.name} ${resource.name}`), resource.name);
      for (const method of commands) {
        assert.match(
          help,
          new RegExp(`^  ${method.name}( \\[options\\])? +\\S`, "m"),
          `${service.name} ${resource.name} ${method.name}`,
        );
      }
    }
  }
});
