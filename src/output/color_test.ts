import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { colorEnabled, paint } from "./color.ts";

Deno.test("colorEnabled() is on for a terminal with no setting against it", () => {
  const ctx = createTestContext({ stdoutIsTerminal: true });
  assert.equal(colorEnabled(ctx, ctx.stdout, { color: true }), true);
  assert.equal(colorEnabled(ctx, ctx.stdout, { color: true, preference: true }), true);
});

Deno.test("colorEnabled() is off when piped", () => {
  const ctx = createTestContext({ stdoutIsTerminal: false });
  assert.equal(colorEnabled(ctx, ctx.stdout, { color: true, preference: true }), false);
});

Deno.test("colorEnabled() is off with --no-color, NO_COLOR or preferences.color=false", () => {
  const terminal = createTestContext({ stdoutIsTerminal: true });
  assert.equal(colorEnabled(terminal, terminal.stdout, { color: false }), false);
  assert.equal(colorEnabled(terminal, terminal.stdout, { color: true, preference: false }), false);
  const noColor = createTestContext({ stdoutIsTerminal: true, env: { NO_COLOR: "1" } });
  assert.equal(colorEnabled(noColor, noColor.stdout, { color: true, preference: true }), false);
});

Deno.test("colorEnabled() ignores an empty NO_COLOR, as no-color.org says", () => {
  const ctx = createTestContext({ stdoutIsTerminal: true, env: { NO_COLOR: "" } });
  assert.equal(colorEnabled(ctx, ctx.stdout, { color: true }), true);
});

Deno.test("colorEnabled() judges the stream written to", () => {
  const ctx = createTestContext({ stdoutIsTerminal: false, stderrIsTerminal: true });
  assert.equal(colorEnabled(ctx, ctx.stderr, { color: true }), true);
  assert.equal(colorEnabled(ctx, ctx.stdout, { color: true }), false);
});

Deno.test("colorEnabled() is off with TERM=dumb", () => {
  const ctx = createTestContext({ stdoutIsTerminal: true, env: { TERM: "dumb" } });
  assert.equal(colorEnabled(ctx, ctx.stdout, { color: true, preference: true }), false);
  const xterm = createTestContext({ stdoutIsTerminal: true, env: { TERM: "xterm-256color" } });
  assert.equal(colorEnabled(xterm, xterm.stdout, { color: true }), true);
});

Deno.test("paint() wraps text in ANSI codes only when enabled", () => {
  const on = paint(true);
  assert.equal(on.enabled, true);
  assert.equal(on.red("x"), "\x1b[31mx\x1b[39m");
  assert.equal(on.bold("x"), "\x1b[1mx\x1b[22m");
  const off = paint(false);
  assert.equal(off.enabled, false);
  for (const style of [off.red, off.bold]) assert.equal(style("x"), "x");
});

Deno.test("paint() keeps the outer style on after a nested one of the same kind ends", () => {
  const { bold } = paint(true);
  assert.equal(bold(`a ${bold("b")} c`), "\x1b[1ma \x1b[1mb\x1b[22m\x1b[1m c\x1b[22m");
});
