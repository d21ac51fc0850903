import assert from "node:assert/strict";
import { childEnv, SECRET_ENV_VARS } from "./run_subprocess.ts";

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
