import assert from "node:assert/strict";
import { ValidationError } from "../errors/mod.ts";
import { checkJqFilter, type JqEngine, loadJq, printJq } from "./jq.ts";

/** Runs {@link printJq} and returns what it wrote, or the error it threw with what it wrote. */
function filtered(engine: JqEngine, filter: string, json: string) {
  const out = { stdout: "", stderr: "", error: undefined as unknown };
  try {
    printJq(engine, filter, json, {
      stdout: (text) => out.stdout += text,
      stderr: (text) => out.stderr += text,
    });
  } catch (error) {
    out.error = error;
  }
  return out;
}

Deno.test("printJq() prints each result on a line: strings raw, the rest compact JSON", async () => {
  const jq = await loadJq();
  const json = '[{"name":"Ann","tags":["a"]},{"name":"Bo\\tb","tags":[]}]';
  assert.deepEqual(filtered(jq, ".[].name", json), {
    stdout: "Ann\nBo\tb\n",
    stderr: "",
    error: undefined,
  });
  assert.equal(filtered(jq, ".[0]", json).stdout, '{"name":"Ann","tags":["a"]}\n');
  assert.equal(filtered(jq, "length", json).stdout, "2\n");
  assert.equal(
    filtered(jq, ".[] | select(.tags == [])", json).stdout,
    '{"name":"Bo\\tb","tags":[]}\n',
  );
});

Deno.test("printJq() escapes terminal controls in raw strings, in JSON and in jq's messages", async () => {
  const jq = await loadJq();
  assert.equal(filtered(jq, ".a", '{"a":"x\\u001b]0;pwn\\u0007"}').stdout, "x\\x1b]0;pwn\\x07\n");
  assert.equal(filtered(jq, "[.a]", '{"a":"\u202eevil"}').stdout, '["\\u202eevil"]\n');
  // `stderr` writes a string as it is: its controls are escaped on the way to the terminal.
  const raw = filtered(jq, '"\\u001b[2J" | stderr | length', "null");
  assert.deepEqual(raw, { stdout: "4\n", stderr: "\\x1b[2J\n", error: undefined });
  assert.equal(filtered(jq, "debug | 1", '"x"').stderr, '["DEBUG:","x"]\n');
});

Deno.test("printJq() reads each JSON value of the input, and nothing from no output", async () => {
  const jq = await loadJq();
  assert.equal(filtered(jq, ".id", '{"id":1}\n{"id":2}\n').stdout, "1\n2\n");
  assert.deepEqual(filtered(jq, ".id", ""), { stdout: "", stderr: "", error: undefined });
});

Deno.test("checkJqFilter() refuses an expression that does not compile, quoting jq", async () => {
  const jq = await loadJq();
  assert.throws(() => checkJqFilter(jq, ".a["), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.code, 2);
    assert.equal(error.param, "--jq");
    assert.match(error.message, /^Invalid --jq expression "\.a\[": jq: error: syntax error/);
    assert.match(error.message, /compile error/);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
});

Deno.test("checkJqFilter() compiles the expression without running it", async () => {
  const jq = await loadJq();
  checkJqFilter(jq, ".[] | .name");
  checkJqFilter(jq, "map(.id)");
  // Run, these would stop as a compile error does, or never end.
  checkJqFilter(jq, '"1 compile error" | halt_error(3)');
  checkJqFilter(jq, "repeat(1)");
});

Deno.test("checkJqFilter() reads an expression that starts with - as an expression, not an option", async () => {
  const jq = await loadJq();
  for (const filter of ["-f", "--indent", "-h", "--arg"]) {
    assert.throws(() => checkJqFilter(jq, filter), /^ValidationError: Invalid --jq expression/);
  }
  assert.equal(filtered(jq, "-.[0]", "[3]").stdout, "-3\n");
});

Deno.test("printJq() names the expression when it fails on the output", async () => {
  const jq = await loadJq();
  const { error } = filtered(jq, ".[]", "1");
  assert.ok(error instanceof ValidationError);
  assert.equal(error.param, "--jq");
  assert.match(
    error.message,
    /^The --jq expression "\.\[\]" failed on the output: jq: error .*Cannot iterate over number/,
  );
});

Deno.test("printJq() sends what the filter wrote before failing to stderr, not into the error", async () => {
  const jq = await loadJq();
  const out = filtered(jq, ".[] | debug | .a.b", '[{"a":{"b":1}},{"a":"s"}]');
  assert.equal(out.stdout, "1\n");
  assert.equal(out.stderr, '["DEBUG:",{"a":{"b":1}}]\n["DEBUG:",{"a":"s"}]\n');
  assert.ok(out.error instanceof ValidationError);
  assert.match(
    out.error.message,
    /failed on the output: jq: error \(at <stdin>:0\): Cannot index string with string \("b"\)$/,
  );
  const long = filtered(jq, '"x" * 5000 | halt_error(5)', "null");
  assert.ok(long.error instanceof ValidationError);
  assert.ok(long.error.message.endsWith("x…") && long.error.message.length < 2200);
});

Deno.test("printJq() reports jq running out of memory or stack; the next load is a new jq", async () => {
  const jq = await loadJq();
  const { error } = filtered(jq, "def f: 1 + f; f", "null");
  assert.ok(error instanceof ValidationError);
  assert.match(error.message, /failed on the output: jq ran out of memory .* or of stack$/);
  const fresh = await loadJq();
  assert.notEqual(fresh, jq);
  assert.equal(filtered(fresh, ".[0]", "[1]").stdout, "1\n");
});

Deno.test("printJq() prints the results made before jq failed, then fails", async () => {
  const jq = await loadJq();
  const out = filtered(jq, ".[] | .a.b", '[{"a":{"b":1}},{"a":"s"},{"a":{"b":3}}]');
  assert.equal(out.stdout, "1\n");
  assert.ok(out.error instanceof ValidationError);
  assert.match(out.error.message, /Cannot index string with string \("b"\)/);
  // A stop with a status and no message is still a failure, named by its status.
  const halted = filtered(jq, '"" | halt_error(4)', "null");
  assert.ok(halted.error instanceof ValidationError);
  assert.match(halted.error.message, /failed on the output: jq stopped with exit status 4$/);
  assert.equal(filtered(jq, "1, halt", "null").stdout, "1\n");
});

Deno.test("jq sees no file and none of the environment of the process it runs in", async () => {
  const jq = await loadJq();
  Deno.env.set("HARK_JQ_TEST_SECRET", "s3cret");
  try {
    assert.doesNotMatch(filtered(jq, "$ENV | tojson", "null").stdout, /s3cret|HARK_JQ_TEST/);
  } finally {
    Deno.env.delete("HARK_JQ_TEST_SECRET");
  }
  const { error } = filtered(jq, 'import "etc/passwd" as p; .', "null");
  assert.ok(error instanceof ValidationError);
  assert.match(error.message, /module not found/);
});
