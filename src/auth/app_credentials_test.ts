import assert from "node:assert/strict";
import { createTestContext } from "../../tests/support/test_context.ts";
import { MemoryKeychain } from "../keychain/memory_keychain.ts";
import { AuthError, ValidationError } from "../errors/mod.ts";
import {
  type AppEntry,
  type Config,
  resolveServiceAddress,
  storedAppSecretText,
} from "../config/mod.ts";
import { type AppCredentialsTarget, resolveAppCredentials } from "./app_credentials.ts";

const FEISHU = "https://open.feishu.cn";
const LOCAL = "http://127.0.0.1:8123";
/** A config at another path than the default one (HOME is unset in the test context). */
const OTHER = "/work/repo/hark.json";

function target(app: AppEntry, extra: Partial<Config> = {}): AppCredentialsTarget {
  return {
    config: { apps: { default: { app_id: "cli_1", ...app } }, ...extra },
    profile: "default",
    configPath: OTHER,
  };
}

async function resolve(
  t: AppCredentialsTarget,
  destination: string,
  options: { env?: Record<string, string>; keychain?: Record<string, string> } = {},
) {
  const ctx = createTestContext({
    env: options.env,
    keychain: new MemoryKeychain(options.keychain ?? {}),
  });
  const service = resolveServiceAddress(ctx.env, t.config, t.profile);
  return await resolveAppCredentials(ctx, t, service, destination);
}

const TENANT = "/open-apis/auth/v3/tenant_access_token/internal";

Deno.test("resolveAppCredentials() reads only the config's own keychain entry for the profile", async () => {
  const own = "hark/ns1/default/app_secret";
  const keychain = {
    [own]: storedAppSecretText("own-secret", LOCAL),
    "hark/default/app_secret": storedAppSecretText("default-config-secret", LOCAL),
    "hark/default/user_token": '{"access_token":"u-x","refresh_token":"ur-x"}',
    "hark/ns1/work/app_secret": storedAppSecretText("work-secret", LOCAL),
    "hark/ns2/default/app_secret": storedAppSecretText("other-config-secret", LOCAL),
  };
  const ok = await resolve(
    target({ app_secret: `@keychain:${own}`, base_url: LOCAL }, { keychain_namespace: "ns1" }),
    LOCAL + TENANT,
    { keychain },
  );
  assert.deepEqual(ok, { appId: "cli_1", appSecret: "own-secret", source: "config" });

  const foreign = [
    "hark/default/app_secret", // the default config's
    "hark/default/user_token", // a token record named as an app secret
    "hark/ns1/work/app_secret", // another profile's
    "hark/ns2/default/app_secret", // another config's namespace
    "hark/ns1/default/user_token", // another kind of entry of its own
  ];
  for (const path of foreign) {
    await assert.rejects(
      resolve(
        target({ app_secret: `@keychain:${path}`, base_url: LOCAL }, { keychain_namespace: "ns1" }),
        LOCAL + TENANT,
        { keychain },
      ),
      (error: unknown) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.equal(error.param, "apps.default.app_secret");
        assert.equal(
          error.message,
          `Refusing apps.default.app_secret in "${OTHER}": "@keychain:${path}" is not an entry ` +
            `of this config file (its own is "hark/ns1/default/app_secret"); a config file reads ` +
            "only its own keychain entries",
        );
        assert.equal(error.recovery.command, "hark config init --force");
        return true;
      },
      path,
    );
  }
  // A config at another path with no namespace owns nothing: the default config's entries stay its.
  await assert.rejects(
    resolve(
      target({ app_secret: "@keychain:hark/default/app_secret", base_url: LOCAL }),
      LOCAL + TENANT,
      { keychain },
    ),
    /it has no keychain entries of its own yet/,
  );
});

Deno.test("resolveAppCredentials() sends a stored secret only to the origin it was stored for", async () => {
  const own = "hark/ns1/default/app_secret";
  const config = { keychain_namespace: "ns1" };
  const feishu = { [own]: storedAppSecretText("feishu-secret", FEISHU) };
  const app = target({ app_secret: `@keychain:${own}`, base_url: FEISHU }, config);
  assert.equal(
    (await resolve(app, FEISHU + TENANT, { keychain: feishu })).appSecret,
    "feishu-secret",
  );
  // Its sign-in host, where device authorization goes.
  assert.equal(
    (await resolve(app, "https://accounts.feishu.cn/oauth/v1/device_authorization", {
      keychain: feishu,
    })).appSecret,
    "feishu-secret",
  );
  const moved = target({ app_secret: `@keychain:${own}`, base_url: LOCAL }, config);
  await assert.rejects(resolve(moved, LOCAL + TENANT, { keychain: feishu }), (error: unknown) => {
    assert.ok(error instanceof AuthError);
    assert.equal(
      error.message,
      `Refusing to send the app secret of profile "default" to "${LOCAL}" (named by "${OTHER}"): ` +
        `it was stored for "${FEISHU}"`,
    );
    return true;
  });
  // An accounts_url elsewhere is refused as well.
  const accounts = target(
    { app_secret: `@keychain:${own}`, base_url: FEISHU, accounts_url: LOCAL },
    config,
  );
  await assert.rejects(
    resolve(accounts, LOCAL + "/oauth/v1/device_authorization", { keychain: feishu }),
    /it was stored for "https:\/\/open\.feishu\.cn"/,
  );
  // Trusted outside the config file, it may go there.
  assert.equal(
    (await resolve(moved, LOCAL + TENANT, {
      keychain: feishu,
      env: { HARK_TRUSTED_ORIGINS: LOCAL },
    })).appSecret,
    "feishu-secret",
  );
});

Deno.test("resolveAppCredentials() sends an @env: secret only to Lark or an origin trusted outside the config", async () => {
  const env = { LARK_SECRET: "env-secret" };
  const feishu = target({ app_secret: "@env:LARK_SECRET", base_url: FEISHU });
  assert.equal((await resolve(feishu, FEISHU + TENANT, { env })).appSecret, "env-secret");
  const lark = target({ app_secret: "@env:LARK_SECRET", base_url: "https://open.larksuite.com" });
  assert.equal(
    (await resolve(lark, "https://accounts.larksuite.com/oauth/v1/device_authorization", { env }))
      .appSecret,
    "env-secret",
  );

  const local = target({ app_secret: "@env:LARK_SECRET", base_url: LOCAL });
  await assert.rejects(resolve(local, LOCAL + TENANT, { env }), (error: unknown) => {
    assert.ok(error instanceof AuthError);
    assert.equal(
      error.message,
      `Refusing to send apps.default.app_secret ("@env:LARK_SECRET") to "${LOCAL}" (named by ` +
        `"${OTHER}"): a secret from the environment goes only to Lark's services ` +
        "(open.feishu.cn, open.larksuite.com) or to an origin trusted outside the config file",
    );
    assert.match(error.recovery.suggestion, /HARK_TRUSTED_ORIGINS=http:\/\/127\.0\.0\.1:8123/);
    return true;
  });
  // A look-alike of Lark's host is not Lark.
  const lookalike = target({
    app_secret: "@env:LARK_SECRET",
    base_url: "https://open.feishu.cn.evil.test",
  });
  await assert.rejects(
    resolve(lookalike, "https://open.feishu.cn.evil.test" + TENANT, { env }),
    AuthError,
  );
  const trusts: Record<string, string>[] = [
    { HARK_TRUSTED_ORIGINS: `https://a.example, ${LOCAL}/` },
    { HARK_TRUSTED_ORIGINS: `${LOCAL} https://b.example` },
    { HARK_BASE_URL: LOCAL },
  ];
  for (const trust of trusts) {
    const resolved = await resolve(local, LOCAL + TENANT, { env: { ...env, ...trust } });
    assert.equal(resolved.appSecret, "env-secret", JSON.stringify(trust));
  }
  await assert.rejects(
    resolve(local, LOCAL + TENANT, { env: { ...env, HARK_TRUSTED_ORIGINS: "ftp://x" } }),
    (error: unknown) =>
      error instanceof ValidationError && error.param === "HARK_TRUSTED_ORIGINS" &&
      /^Invalid HARK_TRUSTED_ORIGINS entry "ftp:\/\/x"/.test(error.message),
  );
});

Deno.test("resolveAppCredentials() treats a keychain secret stored without its origin as one from outside", async () => {
  const own = "hark/ns1/default/app_secret";
  const legacy = { [own]: "bare-old-secret" };
  const config = { keychain_namespace: "ns1" };
  const feishu = target({ app_secret: `@keychain:${own}`, base_url: FEISHU }, config);
  assert.equal(
    (await resolve(feishu, FEISHU + TENANT, { keychain: legacy })).appSecret,
    "bare-old-secret",
  );
  const local = target({ app_secret: `@keychain:${own}`, base_url: LOCAL }, config);
  await assert.rejects(
    resolve(local, LOCAL + TENANT, { keychain: legacy }),
    /stored by an older hark, without the service it is for/,
  );
});

Deno.test("resolveAppCredentials() sends HARK_APP_SECRET only to Lark, HARK_BASE_URL or a trusted origin", async () => {
  const env = { HARK_APP_ID: "cli_env", HARK_APP_SECRET: "env-app-secret" };
  const local = target({ base_url: LOCAL });
  await assert.rejects(
    resolve(local, LOCAL + TENANT, { env }),
    /^AuthError: Refusing to send HARK_APP_SECRET to "http:\/\/127\.0\.0\.1:8123"/,
  );
  const withBase = await resolve(local, LOCAL + TENANT, { env: { ...env, HARK_BASE_URL: LOCAL } });
  assert.deepEqual(withBase, { appId: "cli_env", appSecret: "env-app-secret", source: "env" });
  const lark = await resolve(target({}), "https://open.larksuite.com" + TENANT, { env });
  assert.equal(lark.appSecret, "env-app-secret");
});

Deno.test("resolveAppCredentials() sends a secret written in the config itself to the config's service", async () => {
  const local = target({ app_secret: "@plain:dev-secret", base_url: LOCAL });
  assert.equal((await resolve(local, LOCAL + TENANT)).appSecret, "dev-secret");
});

Deno.test("resolveAppCredentials() refuses an @env: reference that names no variable", async () => {
  for (const value of ["@env:", "@env:A B", "@env:A=B", "@env:1X"]) {
    await assert.rejects(
      resolve(target({ app_secret: value, base_url: FEISHU }), FEISHU + TENANT),
      (error: unknown) =>
        error instanceof ValidationError && error.param === "apps.default.app_secret" &&
        error.message.includes("must be followed by the name of an environment variable"),
      value,
    );
  }
});
