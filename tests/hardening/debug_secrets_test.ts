/**
 * Issue 12, low: `--debug` never quotes secret material. A whole session runs with `--debug`
 * (device-flow sign-in, refresh, bot token, a credential command printing a malformed answer
 * that holds a token, a corrupt token record in the keychain), and no 8 characters in a row of
 * any secret it handled appear on stderr: not in a debug line, not in an error, not in the
 * stack traces and causes `--debug` adds.
 */

import assert from "node:assert/strict";
import type { HarkRun } from "../support/hark_env.ts";
import { homeKeychain, startWorld } from "../support/world.ts";

/** The first 8-character piece of `secret` found in `text`, if any. */
function leaked(text: string, secret: string): string | undefined {
  for (let i = 0; i + 8 <= secret.length; i++) {
    const piece = secret.slice(i, i + 8);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

Deno.test({
  name:
    "--debug never shows a secret: sign-in, refresh, bot token, credential command, corrupt record",
  ignore: Deno.build.os === "windows",
  async fn() {
    const world = await startWorld();
    try {
      const keychain = homeKeychain(world.home);
      const stderr: string[] = [];
      const run = async (args: string[], env: Record<string, string> = {}): Promise<HarkRun> => {
        const result = await world.run([...args, "--debug"], { env });
        stderr.push(result.stderr);
        return result;
      };

      // Sign in with --debug: device code, client secret and tokens cross the wire. (The one
      // sign-in through a subprocess outside tests/auth: what --debug prints is the subject.)
      const live = world.start(["auth", "login", "--json", "--debug", "--wait", "5m"]);
      const [, userCode] = await live.waitFor(/enter the code: (\S+)/);
      await world.control("/sandbox/approve", {
        user_code: userCode,
        decision: "approve",
        access_token_ttl: 60,
      });
      const login = await live.done;
      assert.equal(login.code, 0, login.stderr);
      stderr.push(login.stderr);
      assert.match(login.stderr, /\[debug\] → POST .*\/oauth\/v1\/device_authorization/);
      const { keychain_namespace: ns } = await world.home.readConfig();
      const tokenPath = `hark/${ns}/default/user_token`;
      const first = JSON.parse((await keychain.get(tokenPath))!);

      // A refresh with --debug: the refresh token goes out, new tokens come back.
      assert.equal((await run(["auth", "token"])).code, 0);
      const second = JSON.parse((await keychain.get(tokenPath))!);
      assert.notEqual(second.access_token, first.access_token);

      // The bot: the app secret goes out, a tenant token comes back.
      assert.equal(
        (await run(["api", "GET", "/open-apis/im/v1/chats", "--as", "bot", "--json"])).code,
        0,
      );
      const tenant = JSON.parse((await keychain.get(`hark/${ns}/default/tenant_token`))!).token;

      // A credential command whose answer is malformed JSON holding a token.
      const commandSecret = "u-from-a-vault-5f4e3d2c1b0a9988";
      const config = await world.home.readConfig() as {
        apps: { default: Record<string, unknown> };
      };
      config.apps.default.credential_command = [
        "/bin/sh",
        "-c",
        `printf '{"access_token": "${commandSecret}", oops}'`,
      ];
      await Deno.writeTextFile(world.home.configPath, JSON.stringify(config));
      const malformed = await run(["api", "GET", "/open-apis/authen/v1/user_info"]);
      assert.equal(malformed.code, 3, malformed.stderr);
      assert.match(malformed.stderr, /Malformed answer from the credential command/);
      delete config.apps.default.credential_command;
      await Deno.writeTextFile(world.home.configPath, JSON.stringify(config));

      // A corrupt token record in the keychain: a bare token where the record should be (V8's
      // SyntaxError quotes the start of such a text).
      const corruptSecret = "u-corrupt-record-0a1b2c3d4e5f6a7b";
      await keychain.set(tokenPath, corruptSecret);
      const corrupt = await run(["auth", "token"]);
      assert.equal(corrupt.code, 3, corrupt.stderr);
      assert.match(corrupt.stderr, /is not a token record/);

      const deviceCode = (await world.requestLog())
        .find((r) => typeof r.body?.device_code === "string")?.body?.device_code;
      assert.ok(deviceCode, "the device code was polled with");
      const secrets: Record<string, string> = {
        "app secret": world.sb.appSecret,
        "device code": deviceCode,
        "first access token": first.access_token,
        "first refresh token": first.refresh_token,
        "refreshed access token": second.access_token,
        "refreshed refresh token": second.refresh_token,
        "tenant token": tenant,
        "credential command's token": commandSecret,
        "corrupt record's token": corruptSecret,
      };
      const all = stderr.join("\n");
      assert.match(all, /\[debug\] ← 200 POST .*\/open-apis\/authen\/v2\/oauth\/token/);
      for (const [name, secret] of Object.entries(secrets)) {
        assert.ok(secret.length >= 12, name);
        const piece = leaked(all, secret);
        assert.equal(piece, undefined, `--debug showed the ${name} ("${piece}")`);
      }
    } finally {
      await world.close();
    }
  },
});
