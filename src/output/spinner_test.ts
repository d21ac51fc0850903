import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createTestContext } from "../../tests/support/test_context.ts";
import { createSpinner, spinnerEnabled } from "./spinner.ts";

Deno.test("createSpinner() writes nothing when stderr is not a terminal", async () => {
  const ctx = createTestContext({ stderrIsTerminal: false });
  const spinner = createSpinner(ctx);
  spinner.update("Waiting");
  await spinner.ready;
  spinner.stop();
  assert.equal(ctx.stderr.text(), "");
});

Deno.test("spinnerEnabled() is off with TERM=dumb or CI, as the library would be", () => {
  assert.equal(spinnerEnabled(createTestContext({ stderrIsTerminal: true })), true);
  const cases: Record<string, string>[] = [{ TERM: "dumb" }, { CI: "true" }, { CI: "" }];
  for (const env of cases) {
    const ctx = createTestContext({ stderrIsTerminal: true, env });
    assert.equal(spinnerEnabled(ctx), false, JSON.stringify(env));
    const spinner = createSpinner(ctx);
    spinner.update("Waiting");
    spinner.stop();
    assert.equal(ctx.stderr.text(), "", JSON.stringify(env));
  }
});

/**
 * Runs the spinner on a terminal in a child process: the library reads `CI` and `TERM` from the
 * real environment, which the child's is set to (without `CI`, which a CI run has).
 */
async function runOnTerminal(color: boolean): Promise<string> {
  const repo = fileURLToPath(new URL("../../", import.meta.url));
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { createSpinner } from ${
        JSON.stringify(new URL("./spinner.ts", import.meta.url).href)
      };
const chunks = [];
const ctx = {
  env: { get: () => undefined, toObject: () => ({}) },
  stderr: { isTerminal: true, columns: 80, write: (text) => chunks.push(text) },
};
const spinner = createSpinner(ctx, { color: ${color} });
spinner.update("Waiting for approval");
await spinner.ready;
spinner.update("Waiting for approval (code expires in 4:59)");
spinner.stop();
spinner.update("after stop");
console.log(JSON.stringify(chunks.join("")));
`,
    );
    const env: Record<string, string> = { TERM: "xterm-256color", FORCE_COLOR: "1" };
    for (const name of ["PATH", "HOME", "DENO_DIR", "SSL_CERT_FILE", "DENO_TLS_CA_STORE"]) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--config",
        `${repo}deno.json`,
        "--allow-read",
        "--allow-env",
        script,
      ],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    return JSON.parse(new TextDecoder().decode(output.stdout));
  } finally {
    await Deno.remove(script);
  }
}

Deno.test("createSpinner() on a terminal draws, redraws and clears through ctx.stderr", async () => {
  const written = await runOnTerminal(false);
  // Frames advance with time; any frame of the animation will do.
  assert.equal(
    written.replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g, "*"),
    "\x1b[?25l" + // hide the cursor
      "\x1b[?2026h* Waiting for approval\x1b[?2026l" +
      "\x1b[?2026h\x1b[1G\x1b[0K* Waiting for approval (code expires in 4:59)\x1b[?2026l" +
      "\x1b[?25h\x1b[1G\x1b[0K", // show the cursor, clear the line; nothing after stop()
  );
});

Deno.test("createSpinner() colours the frame only with color: true", async () => {
  const written = await runOnTerminal(true);
  // deno-lint-ignore no-control-regex
  assert.match(written, /\x1b\[36m⠋\x1b\[39m Waiting for approval/);
});
