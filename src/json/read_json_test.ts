import assert from "node:assert/strict";
import {
  JsonInputError,
  MAX_ANSWER_DEPTH,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  NOT_JSON,
  parseNetworkJson,
  readJson,
} from "./read_json.ts";

const encoder = new TextEncoder();

function rejects(input: string | Uint8Array, pattern: RegExp, source = "--data"): JsonInputError {
  try {
    readJson(input, { source });
  } catch (error) {
    assert.ok(error instanceof JsonInputError, String(error));
    assert.equal(error.code, 2);
    assert.equal(error.type, "validation");
    assert.match(error.message, pattern);
    return error;
  }
  assert.fail(`accepted ${JSON.stringify(input)}`);
}

Deno.test("readJson() returns the value of text and of UTF-8 bytes", () => {
  assert.deepEqual(readJson('{"a": [1, 2.5e3, "x"], "b": null}', { source: "--data" }), {
    a: [1, 2500, "x"],
    b: null,
  });
  assert.deepEqual(readJson(encoder.encode('{"name": "密钥 🔑"}'), { source: "f" }), {
    name: "密钥 🔑",
  });
  // A byte-order mark, as Notepad writes it, is not part of the text.
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode("[true]")]);
  assert.deepEqual(readJson(bom, { source: "f" }), [true]);
});

Deno.test("readJson() names the source, line and column of every kind of syntax error", () => {
  const cases: [string, string][] = [
    ['{\n  "app_secret": plaintext-secret\n}', "line 2, column 17: expected a value"],
    ['{"a": [1, 2,]}', "line 1, column 13: expected a value"],
    ['{"a": "bad \\q escape"}', "line 1, column 13: invalid escape sequence"],
    ['{"a": "tab\there"}', "line 1, column 11: control character in a string"],
    ['{"a": 01}', "line 1, column 8: invalid number"],
    ['{"a": 1.}', "line 1, column 8: invalid number"],
    ['{"a": -x}', "line 1, column 8: invalid number"],
    ['{"a": tru}', "line 1, column 7: expected a value"],
    ["{'a': 1}", "line 1, column 2: expected a property name in double quotes"],
    ['{"a": 1,\n\n  "b" 2}', "line 3, column 7: expected ':' after a property name"],
    ['{"a": "\\u12G4"}', "line 1, column 9: a \\u escape needs four hexadecimal digits"],
    ['{"a": 1}}', "line 1, column 9: unexpected text after the JSON value"],
    ['{"a": 1 "b": 2}', "line 1, column 9: expected ',' or '}'"],
    ["[1 2]", "line 1, column 4: expected ',' or ']'"],
    ['{\n  "apps": ', "line 2, column 11: the JSON ends too early"],
    ['"open', "line 1, column 6: the JSON ends too early"],
    ['{"名前": x}', "line 1, column 8: expected a value"],
  ];
  for (const [text, expected] of cases) {
    const error = rejects(text, /^Invalid JSON in --data at line/);
    assert.ok(error.message.includes(expected), `${text}: ${error.message}`);
    assert.equal(error.param, "--data");
    assert.equal(error.recovery.suggestion, "Check the JSON given to --data");
  }
});

Deno.test("readJson() never quotes the input in its error", () => {
  const secret = "S3cr3tAppSecretValue";
  for (
    const text of [
      `{"app_secret": ${secret}}`,
      `{"app_secret": "${secret}" x}`,
      `["${secret}`,
      `${secret}`,
      `{"credential_command": ["vault", "--token=${secret}"]]`,
    ]
  ) {
    const error = rejects(text, /^Invalid JSON in --data/);
    for (const shown of [error.message, error.recovery.suggestion, error.reason]) {
      assert.ok(!shown.includes("S3cr"), shown);
      assert.ok(!shown.includes("Value"), shown);
    }
    assert.equal(error.cause, undefined);
  }
});

Deno.test("readJson() reports empty input without a position", () => {
  const error = rejects(
    " \n\t",
    /^Invalid JSON in --input "a\.json": it is empty$/,
    '--input "a.json"',
  );
  assert.equal(error.line, undefined);
  rejects(new Uint8Array(), /it is empty/);
});

Deno.test("readJson() stops at the depth limit instead of overflowing the stack", () => {
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  assert.ok(Array.isArray(readJson(nested(MAX_JSON_DEPTH), { source: "--data" })));
  const error = rejects(nested(MAX_JSON_DEPTH + 1), /nested deeper than 64 levels/);
  assert.equal(error.line, 1);
  assert.equal(error.column, MAX_JSON_DEPTH + 1);
  // Far beyond what JSON.parse's recursion survives: still a clear error, and fast.
  const huge = '{"a":'.repeat(1_000_000) + "1" + "}".repeat(1_000_000);
  rejects(huge, /line 1, column 321: nested deeper than 64 levels/);
  rejects("[".repeat(5_000_000), /nested deeper than 64 levels/);
});

Deno.test("readJson() honours a smaller depth limit", () => {
  assert.throws(
    () => readJson("[[[1]]]", { source: "x", maxDepth: 2 }),
    /line 1, column 3: nested deeper than 2 levels/,
  );
  assert.deepEqual(readJson("[[1]]", { source: "x", maxDepth: 2 }), [[1]]);
});

Deno.test("readJson() rejects invalid UTF-8 with its position instead of replacing it", () => {
  const bytes = (...parts: (string | number[])[]) =>
    new Uint8Array(parts.flatMap((p) => typeof p === "string" ? [...encoder.encode(p)] : p));
  const cases: [Uint8Array, string][] = [
    [bytes('{"a": "', [0xff], '"}'), "line 1, column 8"],
    [bytes('{\n "é": "', [0xc3], '"}'), "line 2, column 8"],
    [bytes('["', [0xed, 0xa0, 0x80], '"]'), "line 1, column 3"], // an encoded surrogate
    [bytes('["', [0xc0, 0xaf], '"]'), "line 1, column 3"], // an overlong "/"
    [bytes('["', [0xf4, 0x90, 0x80, 0x80], '"]'), "line 1, column 3"], // above U+10FFFF
    [bytes('["ok", "', [0xe2, 0x82]), "line 1, column 9"], // cut short
  ];
  for (const [input, where] of cases) {
    const error = rejects(input, /not valid UTF-8/, 'the file "x.json"');
    assert.ok(error.message.includes(where), error.message);
    assert.ok(!error.message.includes("\ufffd"));
  }
});

Deno.test("readJson() accepts exactly what JSON.parse accepts", () => {
  // A seeded walk over strings made of JSON's building blocks and near misses.
  let seed = 20261121;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pieces = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"',
    '"a"',
    '"\\n"',
    '"\\u00e9"',
    '"\\x"',
    "\\",
    "0",
    "1",
    "-",
    ".",
    "e",
    "+",
    "12",
    "0.5",
    "-3e+2",
    "true",
    "fals",
    "null",
    " ",
    "\n",
    "\t",
    "\u00a0",
    "\u0001",
    "x",
    "é",
  ];
  let valid = 0;
  for (let n = 0; n < 20_000; n++) {
    const length = 1 + Math.floor(random() * 8);
    let text = "";
    for (let k = 0; k < length; k++) text += pieces[Math.floor(random() * pieces.length)];
    let expected: unknown;
    let parses = true;
    try {
      expected = JSON.parse(text);
    } catch {
      parses = false;
    }
    if (text.trim() === "") continue;
    if (parses) {
      valid++;
      assert.deepEqual(readJson(text, { source: "x" }), expected, JSON.stringify(text));
    } else {
      assert.throws(() => readJson(text, { source: "x" }), JsonInputError, JSON.stringify(text));
    }
  }
  assert.ok(valid > 500, `only ${valid} valid samples`);
});

Deno.test("parseNetworkJson() reads an answer, refusing one nested too deeply without a crash", () => {
  assert.deepEqual(parseNetworkJson('{"code":0,"data":{"a":[1]}}'), {
    ok: true,
    value: { code: 0, data: { a: [1] } },
  });
  const deep = `{"data":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  assert.deepEqual(parseNetworkJson(deep), {
    ok: false,
    problem: `it nests deeper than ${MAX_ANSWER_DEPTH} levels`,
  });
  assert.deepEqual(parseNetworkJson("<html>secret</html>"), { ok: false, problem: NOT_JSON });
  assert.deepEqual(parseNetworkJson("[[1]]", 1), {
    ok: false,
    problem: "it nests deeper than 1 levels",
  });
  assert.deepEqual(parseNetworkJson("[[1]]", 2), { ok: true, value: [[1]] });
});

Deno.test("nestsDeeperThan() counts brackets outside strings only", () => {
  assert.equal(nestsDeeperThan('{"a":"[[[[[[[["}', 1), false);
  assert.equal(
    nestsDeeperThan('{"a":"\\"[[[["}', 1),
    false,
    "an escaped quote stays in the string",
  );
  assert.equal(nestsDeeperThan('{"a":"\\\\", "b": [[1]]}', 2), true, "an escaped backslash ends");
  assert.equal(nestsDeeperThan("[][][][]", 1), false, "siblings are not nesting");
  assert.equal(nestsDeeperThan("[".repeat(513), MAX_ANSWER_DEPTH), true);
  assert.equal(nestsDeeperThan("[".repeat(512), MAX_ANSWER_DEPTH), false);
  assert.equal(nestsDeeperThan("[{[{", 3), true, "both kinds of bracket count");
  assert.equal(nestsDeeperThan('{"a": [{}], "b": {}}', 4), false, "4 brackets cannot nest 5 deep");
});
