/**
 * What a tool error adds for an agent that cannot answer a prompt: signing in or granting a
 * scope happens in a terminal, never inside the server.
 *
 * @module
 */

import { type HarkError, unattendedLogin } from "../errors/mod.ts";

/**
 * Advice for someone who cannot answer a prompt, for a sign-in or permission error: signing in
 * or granting a scope happens in a terminal, never inside the server.
 *
 * @param error the error
 * @returns the sentences to add to the suggestion, or undefined for other errors
 */
export function terminalAdvice(error: HarkError): string | undefined {
  if (error.type !== "auth" && error.type !== "permission") return undefined;
  const command = error.recovery.command;
  const twoSteps = unattendedLogin(command);
  if (twoSteps !== undefined) {
    return `hark mcp never prompts: ask the person you act for to run \`${command}\` in a ` +
      `terminal, then call the tool again. ${twoSteps}.`;
  }
  return command
    ? `hark mcp never prompts: ask the person you act for to run \`${command}\` in a terminal, ` +
      "then call the tool again."
    : undefined;
}
