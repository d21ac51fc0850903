/**
 * Programs hark starts never see its secrets: a `credential_command` that dumps its environment
 * finds none of the keychain password, the app secret or the environment tokens, while PATH,
 * HOME, the D-Bus address and the CA settings are still there.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarkEnv } from "../support/hark_env.ts";

Deno.test({
  name: "a credential_command child sees none of hark's secret variables",
  ignore: Deno.build.os === "windows", // the command is a POSIX shell script
}, async () => {
  const home = await createHarkEnv({
    HARK_APP_ID: "cli_child_env",
    HARK_APP_SECRET: "app-secret-for-children-0001",
    HARK_TENANT_ACCESS_TOKEN: "t-tenant-for-children-0001",
    // Blank: not used as a token (the command is asked), but still a variable to drop.
    HARK_USER_ACCESS_TOKEN: " ",
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus",
    SSL_CERT_FILE: Deno.env.get("SSL_CERT_FILE") ?? "/etc/ssl/certs/ca-certificates.crt",
    DENO_TLS_CA_STORE: "system",
  });
  const dump = join(home.dir, "child-env.txt");
  try {
    await home.writeConfig({
      apps: {
        default: {
          app_id: "cli_child_env",
          base_url: "http://127.0.0.1:9",
          credential_command: [
            "/bin/sh",
            "-c",
            `env > '${dump}'; printf '{"access_token": "u-from-the-command-0001"}'`,
          ],
        },
      },
    });
    const run = await home.run(["auth", "token", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).access_token, "u-from-the-command-0001");
    const seen = Object.fromEntries(
      (await Deno.readTextFile(dump)).split("\n").filter((l) => l.includes("="))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    for (
      const secret of [
        "HARK_KEYCHAIN_PASSWORD",
        "HARK_APP_SECRET",
        "HARK_USER_ACCESS_TOKEN",
        "HARK_TENANT_ACCESS_TOKEN",
      ]
    ) {
      assert.equal(seen[secret], undefined, `the child saw ${secret}`);
    }
    for (
      const name of ["PATH", "HOME", "DBUS_SESSION_BUS_ADDRESS", "SSL_CERT_FILE", "HARK_APP_ID"]
    ) {
      assert.equal(seen[name], home.env[name], `the child lost ${name}`);
    }
    assert.equal(seen.DENO_TLS_CA_STORE, "system");
  } finally {
    await home.cleanup();
  }
});
