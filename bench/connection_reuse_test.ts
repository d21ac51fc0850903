import assert from "node:assert/strict";
import { createSeedData } from "../sandbox/core/seed_data.ts";
import { pagedQuery } from "./connection_reuse.ts";

Deno.test("pagedQuery() finds a search whose --page-all walk takes exactly 20 pages", () => {
  const { users } = createSeedData(1);
  const paged = pagedQuery(users, 20);
  assert.equal(Math.ceil(paged.matches / paged.pageSize), 20);
  const matching = users.filter((u) =>
    u.name.toLowerCase().includes(paged.query) ||
    u.email.toLowerCase().split("@")[0].includes(paged.query)
  );
  assert.equal(matching.length, paged.matches);
});

Deno.test("pagedQuery() fails when no search takes that many pages", () => {
  const { users } = createSeedData(1);
  assert.throws(() => pagedQuery(users.slice(0, 3), 20), /Cannot find a search that takes 20/);
});
