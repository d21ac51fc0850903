/**
 * The keychain `config init` stores the app secret in, settled before the first question: on a
 * machine where the OS keychain cannot be used (no Secret Service, no `secret-tool`), a terminal
 * is offered what works here (the encrypted-file keychain, with a password, or credentials from
 * the environment) instead of six answers lost at the end; the choice is remembered in the
 * config (`preferences.keychain`), never a secret.
 *
 * @module
 */

import { HarkError } from "../../errors/mod.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";
import type { Session } from "../../session/session.ts";
import { askChoice } from "../prompt.ts";

/** An entry no one stores: reading it only tells whether the keychain answers. */
const PROBE_PATH = "hark/keychain_check";

/** What was settled: the backend to remember in the config, when one was chosen here. */
export interface KeychainChoice {
  /** The `preferences.keychain` to store. */
  remember?: "file";
}

/**
 * Checks that the keychain answers, before anything is asked. When it does not: without a
 * terminal, its error (exit 1, naming the ways out) before any input is read; at a terminal, a
 * choice between the file keychain (used from then on, and remembered) and the environment
 * (how is printed, and nothing is written).
 *
 * @param session the command's session
 * @param interactive whether a person answers
 * @returns the choice, or `undefined` when the person chose the environment: nothing to do
 * @throws {KeychainError} when the keychain cannot be used and nobody can choose another
 */
export async function settleKeychain(
  session: Session,
  interactive: boolean,
): Promise<KeychainChoice | undefined> {
  const { ctx } = session;
  const backend = ctx.keychain.backend;
  try {
    await ctx.keychain.get(PROBE_PATH);
    return {};
  } catch (error) {
    if (!(error instanceof HarkError) || error.type !== "keychain") throw error;
    if (!interactive || backend === "file" || ctx.configureKeychain === undefined) throw error;
    ctx.stderr.write(
      `${terminalSafe(`The ${backend} keychain cannot be used here: ${error.message}`)}\n`,
    );
  }
  const choice = await askChoice(ctx, "Where should hark keep secrets?", "HARK_KEYCHAIN=file", [
    { name: "In an encrypted file, with a password you choose", value: "file" },
    { name: "Nowhere: I will give credentials in environment variables", value: "env" },
  ]);
  if (choice === "file") {
    ctx.configureKeychain({ preference: "file" });
    ctx.stderr.write(
      "hark will ask for the password when it needs a secret; HARK_KEYCHAIN_PASSWORD set in " +
        "the environment skips the question\n",
    );
    return { remember: "file" };
  }
  ctx.stderr.write(
    "Nothing was written. Give the app's credentials to each command instead:\n" +
      "  export HARK_APP_ID=cli_… HARK_APP_SECRET=… HARK_BASE_URL=https://open.larksuite.com\n" +
      "or a token: HARK_USER_ACCESS_TOKEN (as the user), HARK_TENANT_ACCESS_TOKEN (as the bot)\n",
  );
  return undefined;
}
