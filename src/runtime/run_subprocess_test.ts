import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, runSubprocess, SECRET_ENV_VARS } from "./run_subprocess.ts";

Deno.test("childEnv() drops hark's secrets and keeps everything else", () => {
  const kept = {
    PATH: "/usr/bin",
    HOME: "/home/ana",
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus",
    SSL_CERT_FILE: "/etc/ssl/ca.pem",
    DENO_TLS_CA_STORE: "system",
    HARK_CONFIG: "/tmp/c.json",
    HARK_APP_ID: "cli_1",
  };
  const secrets = Object.fromEntries(SECRET_ENV_VARS.map((name) => [name, "s3cret"]));
  assert.deepEqual(childEnv({ ...kept, ...secrets }), kept);
  assert.deepEqual(SECRET_ENV_VARS.toSorted(), [
    "HARK_APP_SECRET",
    "HARK_KEYCHAIN_PASSWORD",
    "HARK_TENANT_ACCESS_TOKEN",
    "HARK_USER_ACCESS_TOKEN",
  ]);
});

const posix = Deno.build.os !== "windows";

/** Whether a process runs (a zombie waiting for its reaper does not), given a moment to die. */
async function running(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt++) {
    let state: string | undefined;
    try {
      state = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1]?.[0];
    } catch {
      return false;
    }
    if (state === "Z" || state === "X") return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

Deno.test({
  name: "runSubprocess() stops at its timeout, with the children that keep its pipes open",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "hark-run-" });
    try {
      const pidFile = join(dir, "child.pid");
      const started = Date.now();
      await assert.rejects(
        runSubprocess("sh", ["-c", `sleep 30 & echo $! > '${pidFile}'; sleep 30`], {
          timeoutMs: 500,
        }),
        (error: unknown) =>
          error instanceof Deno.errors.TimedOut &&
          error.message === '"sh" did not finish within 500 ms',
      );
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 5_000, `took ${elapsed} ms`);
      assert.equal(await running(Number(await Deno.readTextFile(pidFile))), false);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "runSubprocess() returns soon after the child exits though a child it left holds its pipes",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "hark-run-" });
    try {
      const pidFile = join(dir, "child.pid");
      const started = Date.now();
      const result = await runSubprocess(
        "sh",
        ["-c", `sleep 30 & echo $! > '${pidFile}'; echo done; echo oops >&2; exit 4`],
        { timeoutMs: 20_000 },
      );
      const elapsed = Date.now() - started;
      assert.deepEqual(result, { code: 4, stdout: "done\n", stderr: "oops\n" });
      assert.ok(elapsed < 5_000, `took ${elapsed} ms`);
      assert.equal(await running(Number(await Deno.readTextFile(pidFile))), false);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "runSubprocess() kills a child that prints more than maxOutputBytes",
  ignore: !posix,
  async fn() {
    for (const stream of ["stdout", "stderr"]) {
      const redirect = stream === "stderr" ? " >&2" : "";
      await assert.rejects(
        runSubprocess("sh", ["-c", `head -c 200000 /dev/zero${redirect}; sleep 30`], {
          maxOutputBytes: 65_536,
          timeoutMs: 20_000,
        }),
        (error: unknown) =>
          error instanceof RangeError &&
          error.message === `"sh" printed more than 65536 bytes on ${stream}`,
      );
    }
    const exact = await runSubprocess("head", ["-c", "65536", "/dev/zero"], {
      maxOutputBytes: 65_536,
    });
    assert.equal(exact.stdout.length, 65_536);
  },
});

Deno.test({
  name: "runSubprocess() stops the child when its signal aborts",
  ignore: !posix,
  async fn() {
    const controller = new AbortController();
    const started = Date.now();
    const run = runSubprocess("sleep", ["30"], { signal: controller.signal, timeoutMs: 20_000 });
    setTimeout(() => controller.abort(new DOMException("Cancelled", "AbortError")), 200);
    await assert.rejects(run, (error: unknown) => (error as Error).name === "AbortError");
    assert.ok(Date.now() - started < 5_000);
  },
});
