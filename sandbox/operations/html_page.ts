/**
 * The sandbox's HTML pages for people: one small page style for the verification page, the
 * approve help and the developer console.
 *
 * @module
 */

/** Text made safe inside HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page with a heading and `body` (HTML already escaped where needed). */
export function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
input,select,button{font-size:1.1rem;padding:.4rem;margin:.3rem 0}
button{margin-right:.5rem}.code{font-family:monospace;letter-spacing:.1em}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}
