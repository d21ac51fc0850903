/**
 * The developer console pages hark links to, so its links work against the sandbox too: a
 * permission error names `<origin>/page/scope-apply?clientID=<app id>&scopes=<scope>` (as
 * lark-cli builds it), or `<origin>/app` when the app id is unknown. The scope page shows whether
 * the app has the scopes enabled and enables them with one button (what an administrator's
 * approval does on Lark).
 *
 * @module
 */

import type { Incoming, SandboxContext } from "../core/context.ts";
import { unknownScopes } from "../oauth/lark_scopes.ts";
import { escapeHtml, page } from "./html_page.ts";

/** The paths served here. */
export const CONSOLE_PATHS = new Set(["/app", "/page/scope-apply"]);

/** Serves `GET /app`, and `GET`/`POST /page/scope-apply`. */
export function serveConsole(ctx: SandboxContext, incoming: Incoming): Response {
  if (incoming.path === "/app") {
    return page(
      "Developer console (sandbox)",
      `<p>App <b>${escapeHtml(ctx.appId)}</b>: ${ctx.appScopes.size} scopes enabled.</p>
<p>A permission error of hark links to this app's scope page, where a scope is enabled.</p>`,
    );
  }
  const form = incoming.method === "POST"
    ? new URLSearchParams(incoming.bodyText)
    : incoming.url.searchParams;
  const clientId = form.get("clientID") ?? "";
  const scopes = (form.get("scopes") ?? "").split(/[\s,]+/).filter((s) => s !== "");
  if (clientId !== ctx.appId) {
    return page("No such app", `<p>The sandbox's app is ${escapeHtml(ctx.appId)}.</p>`, 404);
  }
  const unknown = unknownScopes(scopes);
  if (scopes.length === 0 || unknown.length > 0) {
    return page(
      "Unknown scope",
      `<p>Name scopes Lark knows: ${escapeHtml(unknown.join(", ") || "none given")}.</p>`,
      400,
    );
  }
  if (incoming.method === "POST") {
    for (const scope of scopes) ctx.appScopes.add(scope);
  }
  const rows = scopes.map((s) =>
    `<li><code>${escapeHtml(s)}</code>: ${ctx.appScopes.has(s) ? "enabled" : "not enabled"}</li>`
  ).join("");
  const missing = scopes.some((s) => !ctx.appScopes.has(s));
  return page(
    "Apply for scopes (sandbox)",
    `<p>App <b>${escapeHtml(ctx.appId)}</b></p><ul>${rows}</ul>` +
      (missing
        ? `<form method="post"><input type="hidden" name="clientID" value="${
          escapeHtml(clientId)
        }"><input type="hidden" name="scopes" value="${escapeHtml(scopes.join(","))}">` +
          `<button type="submit">Enable</button></form>`
        : "<p>Sign in again to grant them: <code>hark auth login --scope …</code></p>"),
  );
}
