/**
 * How a sign-in is done when nobody is at a terminal (an agent, a CI job, a JSON consumer): the
 * two steps of `auth login`, for the suggestion of every error whose recovery is a sign-in.
 *
 * @module
 */

/**
 * The two-step form of a sign-in command: `--no-wait --json` prints the device data for a
 * person to approve, then `--device-code` finishes it (exit 75 while still pending).
 *
 * @param command the recovery command, such as `hark auth login --scope im:message`
 * @returns a sentence naming both steps, or `undefined` when the command is not a sign-in that
 *   starts a device flow
 * @example
 * ```ts
 * unattendedLogin("hark auth login --profile work");
 * // "Without a terminal, sign in in two steps: `hark auth login --profile work --no-wait --json` …"
 * ```
 */
export function unattendedLogin(command: string): string | undefined {
  if (!/^hark auth login\b/.test(command) || /--(device-code|no-wait)\b/.test(command)) {
    return undefined;
  }
  const finish = command.replace(/ --(scope|force)\b.*$/, "");
  return `Without a terminal, sign in in two steps: \`${command} --no-wait --json\` prints ` +
    "device_code, user_code and verification_uri for a person to approve in a browser, then " +
    `\`${finish} --device-code <device_code>\` finishes (exit 75 while not yet approved; ` +
    "run it again)";
}
