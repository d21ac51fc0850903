import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { applyJq, checkJqFilter, loadJq } from "./jq.ts";

Deno.test("applyJq() prints each result on a line: strings raw, the rest compact JSON", async () => {
  const jq = await loadJq();
  const json = '[{"name":"Ann","tags":["a"]},{"name":"Bo\\tb","tags":[]}]';
  assert.equal(await applyJq(jq, ".[].name", json), "Ann\nBo\tb\n");
  assert.equal(await applyJq(jq, ".[0]", json), '{"name":"Ann","tags":["a"]}\n');
  assert.equal(await applyJq(jq, "length", json), "2\n");
  assert.equal(
    await applyJq(jq, ".[] | select(.tags == [])", json),
    '{"name":"Bo\\tb","tags":[]}\n',
  );
});

Deno.test("applyJq() escapes terminal controls in raw strings and in JSON", async () => {
  const jq = await loadJq();
  assert.equal(await applyJq(jq, ".a", '{"a":"x\\u001b]0;pwn\\u0007"}'), "x\\x1b]0;pwn\\x07\n");
  assert.equal(await applyJq(jq, "[.a]", '{"a":"\u202eevil"}'), '["\\u202eevil"]\n');
});

Deno.test("applyJq() reads each JSON value of the input, and nothing from no output", async () => {
  const jq = await loadJq();
  assert.equal(await applyJq(jq, ".id", '{"id":1}\n{"id":2}\n'), "1\n2\n");
  assert.equal(await applyJq(jq, ".id", ""), "");
});

Deno.test("checkJqFilter() refuses an expression that does not compile, quoting jq", async () => {
  const jq = await loadJq();
  await assert.rejects(checkJqFilter(jq, ".a["), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.code, 2);
    assert.equal(error.param, "--jq");
    assert.match(error.message, /^Invalid --jq expression "\.a\[": jq: error: syntax error/);
    assert.match(error.message, /compile error/);
    return true;
  });
});

Deno.test("checkJqFilter() accepts an expression that only fails on null", async () => {
  const jq = await loadJq();
  await checkJqFilter(jq, ".[] | .name");
  await checkJqFilter(jq, "map(.id)");
});

Deno.test("applyJq() names the expression when it fails on the output", async () => {
  const jq = await loadJq();
  await assert.rejects(applyJq(jq, ".[]", "1"), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.match(
      error.message,
      /^The --jq expression "\.\[\]" failed on the output: .*Cannot iterate over number/,
    );
    return true;
  });
});
