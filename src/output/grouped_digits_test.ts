import assert from "node:assert/strict";
import { groupedDigits } from "./grouped_digits.ts";

Deno.test("groupedDigits() writes what toLocaleString('en-US') writes for whole numbers", () => {
  for (const n of [0, 7, 999, 1000, 12345, 999999, 1000000, 20971520, -1234, -999, 2 ** 53]) {
    assert.equal(groupedDigits(n), n.toLocaleString("en-US"), String(n));
  }
  assert.equal(groupedDigits(1234.5), "1,234.5");
  assert.equal(groupedDigits(1e21), "1e+21");
  assert.equal(groupedDigits(Number.NaN), "NaN");
});
