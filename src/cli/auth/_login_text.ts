/**
 * What a sign-in shows the person: how to approve its code, and the `--profile` of the commands
 * it suggests. Shared by the steps of `auth login` (show the code for later, wait, end pending).
 *
 * @module
 */

import type { DeviceAuthorization } from "../../auth/mod.ts";
import { terminalSafe } from "../../output/terminal_safe.ts";

/**
 * ` --profile <name>` for a profile other than `default`, for the commands hark suggests.
 *
 * @param profile the profile signing in
 */
export function profileFlag(profile: string): string {
  return profile === "default" ? "" : ` --profile ${profile}`;
}

/**
 * How to approve the sign-in; every part came from the server, so none may drive the terminal.
 *
 * @param auth the device authorization
 */
export function instructions(auth: DeviceAuthorization): string {
  const safe = (text: string) => terminalSafe(text, { breaks: "escape" });
  let text = `To sign in, open ${safe(auth.verification_uri)}\nand enter the code: ` +
    `${safe(auth.user_code)}\n`;
  if (auth.verification_uri_complete) {
    text += `(or open ${safe(auth.verification_uri_complete)})\n`;
  }
  return text;
}
