/**
 * A private Secret Service for tests on Linux: a D-Bus session bus of its own (no service
 * activation, so nothing else starts on it) and an unlocked gnome-keyring, with a temporary
 * `HOME` and XDG folders. Only the child processes given {@link SecretService.env} see it; this
 * process's environment is never changed, and the user's real keyring is never touched.
 *
 * Needs the programs of {@link SECRET_SERVICE_PROGRAMS}: a test using it declares them with
 * `requires(SECRET_SERVICE_PROGRAMS, …)` (tests/support/requires.ts).
 *
 * @module
 */

import { join } from "node:path";

/** The programs the Secret Service tests run (their packages: scripts/test_packages.txt). */
export const SECRET_SERVICE_PROGRAMS: readonly string[] = [
  "dbus-daemon",
  "dbus-send",
  "gnome-keyring-daemon",
  "secret-tool",
];

/** Options of {@link startSecretService}. */
export interface SecretServiceOptions {
  /** Start gnome-keyring on the bus; default true. False gives a bus with no Secret Service. */
  keyring?: boolean;
  /** The password of the keyring's "login" collection; default `hark-test-password`. */
  password?: string;
}

/** A running private Secret Service. */
export interface SecretService {
  /**
   * The environment for child processes: this process's variables with
   * `DBUS_SESSION_BUS_ADDRESS`, `HOME`, `XDG_DATA_HOME`, `XDG_CONFIG_HOME` and
   * `XDG_RUNTIME_DIR` pointing at the private bus and temporary folders.
   */
  env: Record<string, string>;
  /** The bus address. */
  address: string;
  /** The temporary folder holding the bus socket, the home and the keyring files. */
  dir: string;
  /** Stops exactly the processes this service started (by PID) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a private D-Bus session bus and, unless told otherwise, an unlocked gnome-keyring on
 * it, and waits until `org.freedesktop.secrets` is owned.
 *
 * @throws {Error} when the bus cannot start or the keyring does not come up within 10 s
 * @example
 * ```ts
 * const service = await startSecretService();
 * try {
 *   const keychain = new LinuxKeychain(ctx, { env: service.env });
 * } finally {
 *   await service.stop();
 * }
 * ```
 */
export async function startSecretService(
  options: SecretServiceOptions = {},
): Promise<SecretService> {
  const dir = await Deno.makeTempDir({ prefix: "hark-secret-service-" });
  const folders = {
    HOME: join(dir, "home"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_RUNTIME_DIR: join(dir, "runtime"),
  };
  for (const folder of Object.values(folders)) await Deno.mkdir(folder, { mode: 0o700 });
  const socket = join(dir, "bus");
  const config = join(dir, "bus.conf");
  await Deno.writeTextFile(config, busConfig(socket));

  let busPid: number | undefined;
  let keyring: Deno.ChildProcess | undefined;
  const stop = async () => {
    if (keyring) {
      try {
        keyring.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await keyring.status;
      keyring = undefined;
    }
    if (busPid !== undefined) {
      try {
        Deno.kill(busPid, "SIGTERM");
      } catch {
        // Already gone.
      }
      busPid = undefined;
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };

  try {
    const bus = await new Deno.Command("dbus-daemon", {
      args: [`--config-file=${config}`, "--fork", "--print-address=1", "--print-pid=1"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const [address, pid] = new TextDecoder().decode(bus.stdout).trim().split("\n");
    if (!bus.success || !address || !pid) {
      throw new Error(
        `Cannot start a private D-Bus session bus: ${new TextDecoder().decode(bus.stderr)}`,
      );
    }
    busPid = Number(pid);
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      ...folders,
      DBUS_SESSION_BUS_ADDRESS: address,
    };
    delete env.DISPLAY;

    if (options.keyring ?? true) {
      keyring = await startKeyring(env, options.password);
    }
    return { env, address, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Starts an unlocked gnome-keyring on the bus of `env` and waits until it owns
 * `org.freedesktop.secrets`: the keyring of {@link startSecretService}, or a second one after the
 * first was stopped (its items are in the same files). The caller stops it (`kill`, then `status`).
 *
 * @param env the environment of {@link SecretService}
 * @param password the "login" collection's password; default `hark-test-password`
 */
export async function startKeyring(
  env: Record<string, string>,
  password = "hark-test-password",
): Promise<Deno.ChildProcess> {
  const keyring = new Deno.Command("gnome-keyring-daemon", {
    args: ["--foreground", "--unlock", "--components=secrets"],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = keyring.stdin.getWriter();
  await writer.write(new TextEncoder().encode(password));
  await writer.close();
  try {
    await waitForSecretsOwner(env);
  } catch (error) {
    keyring.kill("SIGTERM");
    await keyring.status;
    throw error;
  }
  return keyring;
}

/**
 * Locks the keyring's "login" collection through the Secret Service's `Lock` method, as a
 * screen lock or a timeout would.
 *
 * @param env the environment of {@link SecretService}
 */
export async function lockLoginCollection(env: Record<string, string>): Promise<void> {
  const result = await new Deno.Command("dbus-send", {
    args: [
      "--session",
      "--print-reply",
      "--dest=org.freedesktop.secrets",
      "/org/freedesktop/secrets",
      "org.freedesktop.Secret.Service.Lock",
      "array:objpath:/org/freedesktop/secrets/collection/login",
    ],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!result.success) {
    throw new Error(`Cannot lock the keyring: ${new TextDecoder().decode(result.stderr)}`);
  }
}

async function waitForSecretsOwner(env: Record<string, string>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const result = await new Deno.Command("dbus-send", {
      args: [
        "--session",
        "--print-reply",
        "--dest=org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus.NameHasOwner",
        "string:org.freedesktop.secrets",
      ],
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (/boolean true/.test(new TextDecoder().decode(result.stdout))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("gnome-keyring-daemon did not own org.freedesktop.secrets within 10 s");
}

function busConfig(socket: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
}
