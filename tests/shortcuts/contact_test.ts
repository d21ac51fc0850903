/**
 * The contact shortcuts end to end against the sandbox: in process (the same command code,
 * output and network), the first run of the file as a real hark process (the wiring).
 */

import assert from "node:assert/strict";
import { createShortcutEnv, jsonOf } from "./_shortcut_env.ts";
import { sandboxUserToken } from "../support/sandbox_token.ts";

Deno.test("contact +search-user against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  try {
    await t.step("--query and --limit return one page", async () => {
      await env.clearRequests();
      const users = jsonOf<{ name: string; open_id: string }[]>(
        await env.runProcess(["contact", "+search-user", "--query", "a", "--limit", "3", "--json"]),
      );
      assert.equal(users.length, 3);
      const [request] = await env.requests();
      assert.deepEqual(request.query, { query: "a", page_size: "3" });
    });

    await t.step("--page-all reads everything in pages of 200, ignoring --limit", async () => {
      const page = jsonOf<unknown[]>(
        await env.run(["contact", "+search-user", "--query", "a", "--limit", "200", "--json"]),
      );
      await env.clearRequests();
      const all = jsonOf<unknown[]>(
        await env.run([
          "contact",
          "+search-user",
          "--query",
          "a",
          "--limit",
          "2",
          "--page-all",
          "--json",
        ]),
      );
      assert.equal(all.length, page.length);
      const requests = await env.requests();
      assert.equal(requests.length, Math.ceil(all.length / 200));
      assert.ok(requests.every((r) => r.query.page_size === "200"), JSON.stringify(requests));
    });

    await t.step("table and CSV use the declared columns", async () => {
      const table = await env.run(["contact", "+search-user", "--query", "a", "--format", "table"]);
      assert.match(table.stdout.split("\n")[0], /^NAME\s+OPEN ID\s+USER ID\s+DEPARTMENTS/);
      const csv = await env.run(["contact", "+search-user", "--query", "a", "--format", "csv"]);
      assert.equal(csv.stdout.split(/\r?\n/)[0], "NAME,OPEN ID,USER ID,DEPARTMENTS");
    });

    await t.step(
      "--query is required, from a flag or HARK_CONTACT_QUERY; bots cannot search",
      async () => {
        const missing = await env.run(["contact", "+search-user", "--json"]);
        assert.equal(missing.code, 2);
        assert.equal(JSON.parse(missing.stderr).error.type, "validation");
        const fromEnv = await env.run(["contact", "+search-user", "--json"], {
          env: { HARK_CONTACT_QUERY: "a" },
        });
        assert.equal(fromEnv.code, 0, fromEnv.stderr);
        const bot = await env.run([
          "contact",
          "+search-user",
          "--query",
          "a",
          "--as",
          "bot",
          "--json",
        ]);
        assert.equal(bot.code, 2);
        assert.match(JSON.parse(bot.stderr).error.message, /cannot run as "bot"/);
      },
    );
  } finally {
    await env.close();
  }
});

interface Profile {
  open_id: string;
  union_id: string;
  name: string;
  join_time: string;
  status: { is_resigned: boolean };
}

Deno.test("contact +get-user and +me against the sandbox", async (t) => {
  const env = await createShortcutEnv({}, { inProcess: true });
  const person = env.sb.users[3];
  try {
    await t.step("an open id, a union id and a user id find the same person", async () => {
      for (const id of [person.open_id, person.union_id, person.user_id]) {
        await env.clearRequests();
        const profile = jsonOf<Profile>(
          await env.run(["contact", "+get-user", "--user-id", id, "--json"]),
        );
        assert.equal(profile.open_id, person.open_id);
        assert.equal(profile.name, person.name);
        assert.match(profile.join_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
        const [request] = await env.requests();
        assert.equal(request.path, `/open-apis/contact/v3/users/${id}`);
        const type = id.startsWith("ou_")
          ? "open_id"
          : id.startsWith("on_")
          ? "union_id"
          : "user_id";
        assert.equal(request.query.user_id_type, type);
      }
    });

    await t.step(
      "the card shows name, email, status and departments; --as bot works too",
      async () => {
        const table = await env.run([
          "contact",
          "+get-user",
          "--user-id",
          person.open_id,
          "--format",
          "table",
        ]);
        assert.equal(table.code, 0, table.stderr);
        // One person is a key: value card, every field whole.
        const lines = table.stdout.trimEnd().split("\n");
        assert.equal(lines[0], `NAME:         ${person.name}`);
        assert.equal(lines[1], `OPEN ID:      ${person.open_id}`);
        assert.match(table.stdout, /^EMAIL: +\S+@\S+$/m);
        assert.match(table.stdout, /^STATUS: +active$/m);
        const bot = await env.runBot([
          "contact",
          "+get-user",
          "--user-id",
          person.open_id,
          "--json",
        ]);
        assert.equal(bot.code, 0, bot.stderr);
        assert.equal(jsonOf<Profile>(bot).name, person.name);
      },
    );

    await t.step(
      "a field Lark leaves out for lack of its scope is named, with the fix",
      async () => {
        const { accessToken } = await sandboxUserToken(env.sb, {
          scopes: ["contact:contact.base:readonly", "contact:user.base:readonly"],
        });
        const run = await env.run(["contact", "+get-user", "--user-id", person.open_id, "--json"], {
          env: { HARK_USER_ACCESS_TOKEN: accessToken },
        });
        assert.equal(run.code, 0, run.stderr);
        const profile = jsonOf<Profile & { email?: string }>(run);
        assert.equal(profile.name, person.name);
        assert.equal(profile.email, undefined);
        assert.match(
          run.stderr,
          /^warning: Not shown: email, departments, user id\. Lark leaves them out without contact:user\.email:readonly, contact:user\.department:readonly, contact:user\.employee_id:readonly; sign in granting them: hark auth login --scope contact:user\.email:readonly/,
        );
        // Without an API permission of Lark's user get doc, basic_profile alone is refused.
        const basic = await sandboxUserToken(env.sb, {
          scopes: ["contact:user.basic_profile:readonly"],
        });
        const refused = await env.run(
          ["contact", "+get-user", "--user-id", person.open_id, "--json"],
          { env: { HARK_USER_ACCESS_TOKEN: basic.accessToken } },
        );
        assert.equal(refused.code, 1);
        const error = JSON.parse(refused.stderr).error;
        assert.equal(error.type, "permission");
        assert.match(error.recovery.command, /--scope contact:contact\.base:readonly/);
      },
    );

    await t.step("an unknown user is Lark's error; a malformed id never leaves", async () => {
      const unknown = await env.run(["contact", "+get-user", "--user-id", "ou_nobody", "--json"]);
      assert.equal(unknown.code, 1);
      assert.match(JSON.parse(unknown.stderr).error.message, /41012/);
      await env.clearRequests();
      for (const id of ["", "ou 1", "ou_\u001b[31m"]) {
        const bad = await env.run(["contact", "+get-user", "--user-id", id, "--json"]);
        assert.equal(bad.code, 2, id);
        assert.match(JSON.parse(bad.stderr).error.message, /--user-id/);
      }
      const missing = await env.run(["contact", "+get-user", "--json"]);
      assert.equal(missing.code, 2);
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("--dry-run sends nothing and needs no sign-in", async () => {
      await env.clearRequests();
      const dry = jsonOf<{ url: string }[]>(
        await env.run(["contact", "+get-user", "--user-id", person.union_id, "--dry-run"], {
          env: { HARK_USER_ACCESS_TOKEN: undefined },
        }),
      );
      assert.match(dry[0].url, /\/contact\/v3\/users\/on_.*user_id_type=union_id/);
      assert.deepEqual(await env.requests(), []);
    });

    await t.step("+me names the signed-in user; it has no bot form", async () => {
      const me = jsonOf<{ open_id: string; name: string }>(
        await env.run(["contact", "+me", "--json"]),
      );
      assert.equal(me.open_id, env.sb.users[0].open_id);
      assert.equal(me.name, env.sb.users[0].name);
      const bot = await env.runBot(["contact", "+me", "--json"]);
      assert.equal(bot.code, 2);
      assert.match(JSON.parse(bot.stderr).error.message, /cannot run as "bot"/);
    });
  } finally {
    await env.close();
  }
});
