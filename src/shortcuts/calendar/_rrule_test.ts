import assert from "node:assert/strict";
import { ValidationError } from "../../errors/mod.ts";
import { checkRrule } from "./_rrule.ts";

Deno.test("checkRrule() returns Lark's form: no RRULE: prefix, upper case", () => {
  assert.equal(checkRrule("FREQ=WEEKLY;BYDAY=MO,WE"), "FREQ=WEEKLY;BYDAY=MO,WE");
  assert.equal(
    checkRrule("RRULE:freq=daily;interval=2;count=10"),
    "FREQ=DAILY;INTERVAL=2;COUNT=10",
  );
  assert.equal(
    checkRrule("FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20271231"),
    "FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20271231",
  );
  assert.equal(
    checkRrule("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15"),
    "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15",
  );
});

Deno.test("checkRrule() refuses a malformed rule, naming the flag and the part", () => {
  const cases: [string, RegExp][] = [
    ["", /without spaces/],
    ["FREQ=WEEKLY; BYDAY=MO", /without spaces/],
    ["INTERVAL=2", /FREQ is missing/],
    ["FREQ=HOURLY", /FREQ=HOURLY is not a valid FREQ/],
    ["FREQ=DAILY;COUNT=0", /COUNT=0/],
    ["FREQ=DAILY;COUNT=3;UNTIL=20270101", /COUNT and UNTIL/],
    ["FREQ=WEEKLY;BYDAY=XX", /BYDAY=XX/],
    ["FREQ=DAILY;FREQ=WEEKLY", /given twice/],
    ["FREQ=DAILY;BYHOUR=9", /"BYHOUR=9" is not a rule part/],
    ["FREQ=DAILY;UNTIL=2027-01-01", /UNTIL=2027-01-01/],
    ["FREQ=MONTHLY;BYMONTHDAY=32", /BYMONTHDAY=32/],
    ["FREQ=DAILY\u202e", /without spaces/],
  ];
  for (const [rule, why] of cases) {
    assert.throws(
      () => checkRrule(rule, "--rrule"),
      (e: unknown) => e instanceof ValidationError && e.param === "--rrule" && why.test(e.message),
      rule,
    );
  }
});
