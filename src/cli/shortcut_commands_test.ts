import assert from "node:assert/strict";
import { searchUser } from "../shortcuts/contact/search_user.ts";
import type { AnyShortcut } from "../shortcuts/definition.ts";
import { paramHelp } from "../shortcuts/params.ts";
import { shortcutCommand } from "./shortcut_commands.ts";

Deno.test("shortcutCommand() writes the help lines and notes only when they are read", () => {
  const reads = { description: 0, scopes: 0 };
  const params = searchUser.params.map((param) => {
    const counted = { ...param };
    Object.defineProperty(counted, "description", {
      get: () => (reads.description++, param.description),
      enumerable: true,
    });
    return counted;
  });
  const shortcut = { ...searchUser, params } as AnyShortcut;
  Object.defineProperty(shortcut, "scopes", {
    get: () => (reads.scopes++, searchUser.scopes),
    enumerable: true,
  });

  const command = shortcutCommand(shortcut);
  assert.deepEqual(reads, { description: 0, scopes: 0 }, "building the command writes no help");

  assert.equal(command.flags?.[0].description, paramHelp(searchUser.params[0]));
  assert.equal(reads.description, 1, "written once it is read");
  assert.match(command.notes ?? "", /^Identities: user.*\nScopes as user: /s);
  assert.ok(reads.scopes > 0, "the notes name the scopes");
});
