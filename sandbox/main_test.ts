import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { startSandbox } from "./start_sandbox.ts";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

function spawn(args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--allow-read", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  // Keep draining so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return text.split("\n")[0];
}

Deno.test("main prints its URL, serves, and exits cleanly on SIGTERM", async () => {
  const child = spawn(["--port", "0", "--quiet"]);
  const line = await firstLine(child.stdout);
  const m = /^hark sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
  assert.ok(m, `unexpected first line "${line}"`);
  const answer = await fetch(`${m[1]}/open-apis/authen/v1/user_info`);
  assert.equal(answer.status, 401);
  assert.equal((await answer.json()).code, 99991661);
  child.kill("SIGTERM");
  const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
  assert.equal(status.code, 0);
  assert.match(stderr, /stopped on SIGTERM/);
});

Deno.test("main --json prints one JSON line with the credentials", async () => {
  const child = spawn(["--json", "--app-id", "cli_x", "--app-secret", "s3", "--quiet"]);
  const info = JSON.parse(await firstLine(child.stdout));
  assert.equal(info.app_id, "cli_x");
  assert.equal(info.app_secret, "s3");
  assert.match(info.base_url, /^http:\/\/127\.0\.0\.1:\d+$/);
  child.kill("SIGINT");
  await new Response(child.stderr).text();
  assert.equal((await child.status).code, 0);
});

Deno.test("main reports a port in use in one line and exits 1", async () => {
  const taken = await startSandbox({ port: 0 });
  try {
    const child = spawn(["--port", String(taken.port)]);
    const [status, stdout, stderr] = await Promise.all([
      child.status,
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
    ]);
    assert.equal(status.code, 1);
    assert.equal(stdout, "");
    assert.equal(
      stderr.trim(),
      `hark sandbox: Cannot listen on "127.0.0.1:${taken.port}": address already in use`,
    );
  } finally {
    await taken.close();
  }
});

Deno.test("startSandbox rejects a port in use with a clear error", async () => {
  const taken = await startSandbox({ port: 0 });
  try {
    await assert.rejects(() => startSandbox({ port: taken.port }), /address already in use/);
  } finally {
    await taken.close();
  }
});
