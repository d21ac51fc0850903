/**
 * A whole session against the sandbox with the REAL Linux Secret Service (a private D-Bus and
 * gnome-keyring): config init with the app secret on stdin, a device-flow sign-in, refreshes
 * (the access tokens live 200 s, inside the 5-minute refresh buffer, so each command refreshes),
 * shortcuts, `api`, `--debug`, `--dry-run`, status, profiles, config, a failure, logout.
 *
 * Every secret issued is collected (the app secret, each access and refresh token read from the
 * keychain after every command and from `hark auth token`). Then: no secret is in any file under
 * the temporary home, config or data folders (gnome-keyring's encrypted keyring files included:
 * they must not hold plaintext either), in any argv of a program hark started (a PATH shim logs
 * them), or in any command's output, except `hark auth token`'s stdout, whose job it is.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { startSandbox } from "../../sandbox/mod.ts";
import { readStoredAppSecret } from "../../src/config/stored_secret.ts";
import { SECRET_SERVICE_PROGRAMS, startSecretService } from "../keychain/secret_service.ts";
import { denoDirEnv, type HarkRun, runHark } from "../support/hark_env.ts";
import { requires } from "../support/requires.ts";

/** Programs hark may start; each is wrapped by a shim that logs its argv. */
const WRAPPED = ["secret-tool", "kill", "security", "powershell", "pwsh"];

async function which(program: string): Promise<string | undefined> {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    const path = join(dir, program);
    try {
      if ((await Deno.stat(path)).isFile) return path;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** Writes `dir/<program>` scripts that append their argv to `log` and exec the real program. */
async function writeShims(dir: string, log: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  for (const program of WRAPPED) {
    const real = await which(program);
    const script = `#!/bin/sh\nprintf '%s' ${JSON.stringify(program)} >> '${log}'\n` +
      `for arg in "$@"; do printf ' %s' "$arg" >> '${log}'; done\nprintf '\\n' >> '${log}'\n` +
      (real ? `exec '${real}' "$@"\n` : `echo "${program}: not installed" >&2\nexit 127\n`);
    await Deno.writeTextFile(join(dir, program), script, { mode: 0o755 });
  }
}

/** Every regular file below `root`. */
async function filesBelow(root: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(root)) {
    const path = join(root, entry.name);
    if (entry.isDirectory) found.push(...await filesBelow(path));
    else if (entry.isFile) found.push(path);
  }
  return found;
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Which of `secrets` occur in `text`, with a short description of each. */
function leaks(text: string, secrets: Map<string, string>): string[] {
  return [...secrets].filter(([secret]) => text.includes(secret)).map(([, what]) => what);
}

Deno.test(requires(SECRET_SERVICE_PROGRAMS, {
  name: "no secret leaks to files, argv or output in a session on the real Secret Service",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const service = await startSecretService();
    const appSecret = `as-${crypto.randomUUID()}`;
    const sb = await startSandbox({
      quiet: true,
      interval: 1,
      autoApproveAfter: 0,
      accessTokenTtl: 200,
      appSecret,
    });
    const dir = await Deno.makeTempDir({ prefix: "hark-secrets-" });
    try {
      const shimDir = join(dir, "shims");
      const argvLog = join(dir, "argv.log");
      await Deno.writeTextFile(argvLog, "");
      await writeShims(shimDir, argvLog);
      const configDir = join(dir, "config");
      const dataDir = join(dir, "data");
      const env: Record<string, string> = {
        ...service.env,
        ...denoDirEnv(),
        PATH: `${shimDir}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
        HARK_KEYCHAIN: "linux",
        HARK_CONFIG: join(configDir, "config.json"),
        HARK_DATA_DIR: dataDir,
        NO_COLOR: "1",
        TZ: "UTC",
        DENO_NO_UPDATE_CHECK: "1",
      };
      for (const name of Object.keys(env)) if (name.startsWith("HARK_USER")) delete env[name];
      delete env.HARK_TENANT_ACCESS_TOKEN;
      delete env.HARK_APP_SECRET;
      delete env.CI;

      /** Secret → what it is. */
      const secrets = new Map<string, string>([[appSecret, "the app secret"]]);
      const runs: { args: string[]; run: HarkRun }[] = [];
      const lookup = async (account: string): Promise<string | undefined> => {
        const out = await new Deno.Command("secret-tool", {
          args: ["lookup", "service", "hark", "account", account],
          env: service.env,
          clearEnv: true,
          stdin: "null",
          stdout: "piped",
          stderr: "null",
        }).output();
        const text = new TextDecoder().decode(out.stdout);
        return out.success && text !== "" ? text : undefined;
      };
      // The config is not at the default path: its entries carry its keychain namespace.
      let account = "default";
      const collectTokens = async () => {
        const record = await lookup(`${account}/user_token`);
        if (!record) return;
        const parsed = JSON.parse(record) as { access_token?: string; refresh_token?: string };
        if (parsed.access_token) secrets.set(parsed.access_token, "an access token");
        if (parsed.refresh_token) secrets.set(parsed.refresh_token, "a refresh token");
      };
      const hark = async (args: string[], options: { stdin?: string; code?: number } = {}) => {
        const run = await runHark(args, { env, stdin: options.stdin, timeoutMs: 60_000 });
        assert.equal(
          run.code,
          options.code ?? 0,
          `hark ${args.join(" ")}: exit ${run.code}\n${run.stderr}`,
        );
        runs.push({ args, run });
        await collectTokens();
        return run;
      };

      await hark([
        "config",
        "init",
        "--non-interactive",
        "--app-id",
        sb.appId,
        "--app-secret-stdin",
        "--base-url",
        sb.baseUrl,
      ], { stdin: appSecret });
      const { keychain_namespace: namespace } = JSON.parse(
        await Deno.readTextFile(env.HARK_CONFIG),
      );
      account = `${namespace}/default`;
      // Kept with the origin it was stored for (issue 21).
      assert.deepEqual(
        readStoredAppSecret((await lookup(`${account}/app_secret`)) ?? ""),
        { secret: appSecret, origin: sb.baseUrl },
        "app secret in the keychain",
      );
      await hark(["auth", "login", "--json", "--wait", "1h"]);
      await hark(["auth", "status", "--json"]);
      await hark(["auth", "status"]);
      const chat = sb.chats[0].chat_id;
      const commands = [
        ["calendar", "+agenda", "--start", "2026-11-02", "--end", "2026-11-06", "--json"],
        ["calendar", "+agenda", "--start", "2026-11-02", "--end", "2026-11-03", "--debug"],
        ["im", "+send", "--chat-id", chat, "--text", "secrets test", "--json"],
        ["im", "+send", "--chat-id", chat, "--text", "secrets test, debug", "--debug"],
        ["im", "+send", "--chat-id", chat, "--text", "not sent", "--dry-run"],
        ["api", "GET", "/open-apis/authen/v1/user_info", "--debug"],
        ["api", "POST", "/open-apis/im/v1/messages", "--data", "{}", "--dry-run", "--debug"],
        ["contact", "+search-user", "--query", "a", "--format", "csv", "--debug"],
        ["auth", "check", "--scope", "im:message.send_as_user", "--json"],
        ["profile", "list"],
        ["profile", "list", "--json"],
        ["config", "get"],
        ["config", "get", "--json"],
        ["config", "get", "apps.default.app_secret"],
      ];
      for (const args of commands) await hark(args);
      // A failure with --debug shows stack traces and causes: still no secret.
      await hark(["api", "GET", "/open-apis/no/such/route", "--debug", "--json"], { code: 1 });
      const token = await hark(["auth", "token"]);
      const printed = token.stdout.trim();
      assert.match(printed, /^u-/, "auth token prints the access token");
      secrets.set(printed, "an access token (from auth token)");
      await hark(["auth", "status", "--debug"]);
      await hark(["auth", "logout"]);
      assert.equal(await lookup(`${account}/user_token`), undefined, "logout removes the token");

      const accessTokens = [...secrets.values()].filter((w) => w.startsWith("an access")).length;
      const refreshTokens = [...secrets.values()].filter((w) => w === "a refresh token").length;
      assert.ok(accessTokens >= 3, `only ${accessTokens} access tokens seen: no refresh?`);
      assert.ok(refreshTokens >= 3, `only ${refreshTokens} refresh tokens seen: no rotation?`);
      const refreshed = (await (await fetch(`${sb.baseUrl}/sandbox/requests`)).json() as {
        body: { grant_type?: string } | null;
      }[]).filter((r) => r.body?.grant_type === "refresh_token").length;
      assert.ok(refreshed >= 2, `only ${refreshed} refreshes`);

      const problems: string[] = [];
      // 1. Files: the Secret Service's home, data, config and runtime folders (its keyring
      // files included) and hark's config and data folders.
      const scanned = [
        ...await filesBelow(service.dir),
        ...await filesBelow(configDir),
        ...await filesBelow(dataDir).catch(() => []),
      ];
      const keyrings = scanned.filter((f) => f.includes(`${join(service.dir, "data")}/keyrings/`));
      assert.ok(keyrings.length > 0, "gnome-keyring wrote no keyring file");
      assert.ok(scanned.some((f) => f.endsWith("config.json")), "the config was not scanned");
      const encoder = new TextEncoder();
      for (const file of scanned) {
        const bytes = await Deno.readFile(file);
        for (const [secret, what] of secrets) {
          if (indexOfBytes(bytes, encoder.encode(secret)) >= 0) {
            problems.push(`${what} is in the file ${file}`);
          }
        }
      }
      // 2. The argv of every program hark started.
      const argv = await Deno.readTextFile(argvLog);
      // hark speaks to the Secret Service in process (secret-tool is its fallback): the tokens
      // it stored there were read back above, and whatever program it did start is checked.
      assert.ok(
        [...secrets.values()].includes("an access token"),
        "no token of hark's was found in the Secret Service",
      );
      for (const what of leaks(argv, secrets)) problems.push(`${what} is in a subprocess argv`);
      // 3. Output, except the token `auth token` exists to print.
      for (const { args, run } of runs) {
        const isToken = args[0] === "auth" && args[1] === "token";
        for (const what of leaks(run.stderr, secrets)) {
          problems.push(`${what} is on the stderr of hark ${args.join(" ")}`);
        }
        const stdout = isToken ? run.stdout.replace(printed, "") : run.stdout;
        for (const what of leaks(stdout, secrets)) {
          problems.push(`${what} is on the stdout of hark ${args.join(" ")}`);
        }
      }
      assert.deepEqual(problems, []);
      console.log(
        `${secrets.size} secrets checked against ${scanned.length} files, ` +
          `${argv.split("\n").length - 1} subprocess argvs and ${runs.length} commands' output`,
      );
    } finally {
      await sb.close();
      await service.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
}));
