import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { collect, FakeClient, inputOf } from "../../../tests/support/fake_client.ts";
import { continueNote } from "../paging.ts";
import { calendars } from "./calendars.ts";

/** A calendar list of `total` calendars, a page of `page_size` at a time. */
function pagedClient(total: number) {
  return new FakeClient((r) => {
    const size = Number(r.query!.page_size);
    const offset = r.query!.page_token ? Number(String(r.query!.page_token).slice(1)) : 0;
    const more = offset + size < total;
    return {
      calendar_list: Array.from(
        { length: Math.min(size, total - offset) },
        (_, i) => ({ calendar_id: `cal_${offset + i}`, type: "shared" }),
      ),
      has_more: more,
      page_token: more ? `p${offset + size}` : undefined,
    };
  });
}

Deno.test("calendars --page-token starts where a shorter listing stopped, and says how to go on", async () => {
  const client = pagedClient(200);
  const warnings: string[] = [];
  const input = inputOf({ limit: 50, "page-all": false, "page-token": "p50" }, { warnings });
  const found = await collect(calendars.stream!(input, client));
  assert.deepEqual(
    found.map((c) => c.calendar_id),
    Array.from({ length: 50 }, (_, i) => `cal_${50 + i}`),
  );
  assert.equal(client.requests[0].query!.page_token, "p50");
  assert.deepEqual(warnings, [continueNote("p100")]);
  assert.throws(
    () => calendars.validate!(inputOf({ limit: 50, "page-token": "a b" })),
    (e: unknown) => e instanceof ValidationError && e.param === "--page-token",
  );
});
