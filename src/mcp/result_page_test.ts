import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { cutPage, pageRequestOf } from "./result_page.ts";

Deno.test("cutPage() ends a page before the byte budget, always with one row, and resumes where it stopped", async () => {
  const rows = Array.from({ length: 10 }, (_, i) => ({ id: i, text: "x".repeat(1_000) }));
  const request = await pageRequestOf("t", {});
  const first = cutPage(rows, request, 5_500);
  assert.equal(first.items.length, 3, "2 000 bytes kept for the envelope, ~1 020 a row");
  assert.equal(first.has_more, true);
  const next = await pageRequestOf("t", { page_token: first.page_token });
  assert.equal(next.offset, 3);
  const seen = [...first.items];
  for (let page = cutPage(rows, next, 5_500);;) {
    seen.push(...page.items);
    if (!page.has_more) break;
    page = cutPage(rows, await pageRequestOf("t", { page_token: page.page_token }), 5_500);
  }
  assert.deepEqual(seen, rows);
  // A row larger than the budget still goes out alone, so the listing advances.
  assert.equal(cutPage([{ big: "y".repeat(10_000) }], request, 5_500).items.length, 1);
});

Deno.test("pageRequestOf() refuses a token of another tool, a forged one and a limit below 1", async () => {
  const token = cutPage([1, 2], { ...(await pageRequestOf("a", { q: 1, limit: 1 })) }).page_token;
  assert.equal((await pageRequestOf("a", { q: 1, limit: 1, page_token: token })).offset, 1);
  for (const bad of [{ tool: "b", q: 1 }, { tool: "a", q: 2 }]) {
    await assert.rejects(
      () => pageRequestOf(bad.tool, { q: bad.q, limit: 1, page_token: token }),
      (e: unknown) => e instanceof ValidationError && e.param === "page_token",
    );
  }
  for (const forged of ["h1.!!", "h1.eyJvIjotMX0", 42, "x".repeat(600)]) {
    await assert.rejects(() => pageRequestOf("a", { page_token: forged }), ValidationError);
  }
  await assert.rejects(() => pageRequestOf("a", { limit: 0 }), /limit/);
});
