import assert from "node:assert/strict";
import { shellQuote } from "./shell_quote.ts";

Deno.test({
  name: "shellQuote() leaves plain words and quotes the rest so a shell reads them back",
  ignore: Deno.build.os === "windows", // no POSIX shell to read them back
}, async () => {
  assert.equal(shellQuote("+agenda"), "+agenda");
  assert.equal(shellQuote("--start=2026-11-24"), "--start=2026-11-24");
  assert.equal(shellQuote("ou_1@x.com"), "ou_1@x.com");
  assert.equal(shellQuote("2026-11-24 10:00"), "'2026-11-24 10:00'");
  assert.equal(shellQuote(""), "''");
  assert.equal(shellQuote("it's"), "'it'\\''s'");
  for (const word of ["a b", "it's", "$HOME", "`x`", "a\nb", "*", "#x", "<id>", "\\"]) {
    const output = await new Deno.Command("sh", {
      args: ["-c", `printf %s ${shellQuote(word)}`],
    }).output();
    assert.equal(new TextDecoder().decode(output.stdout), word, word);
  }
});
