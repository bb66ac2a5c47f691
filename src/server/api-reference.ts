import type { OpenApiDocument } from "../contract/openapi.ts";

const esc = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Op = {
  summary?: string;
  security?: Record<string, unknown>[];
  responses?: Record<string, { description?: string }>;
  requestBody?: unknown;
};

/**
 * A readable API reference rendered on the server from the same OpenAPI document:
 * no CDN, no script, so it works air-gapped and under a strict CSP.
 */
export function apiReferenceHtml(doc: OpenApiDocument): string {
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops as Record<string, Op>)) {
      const auth =
        (op.security ?? [])
          .flatMap((s) => Object.keys(s))
          .map((k) => (k === "session" ? "session cookie" : "API key"))
          .filter((v, i, a) => a.indexOf(v) === i)
          .join(" or ") || "none";
      const responses = Object.entries(op.responses ?? {})
        .map(([code, r]) => `<li><code>${esc(code)}</code> ${esc(r.description)}</li>`)
        .join("");
      rows.push(
        `<section><h2><code>${method.toUpperCase()} ${esc(path)}</code></h2><p>${esc(op.summary)}</p><p><strong>Auth:</strong> ${esc(auth)}</p><ul>${responses}</ul></section>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>research-query API reference</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}code{background:#f2f4f7;padding:.1rem .3rem;border-radius:4px}section{border-top:1px solid #dde;padding:.5rem 0}h2{font-size:1.05rem}</style></head>
<body><h1>research-query API</h1><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${esc(doc.openapi)}). Send keys as <code>Authorization: Bearer rq-…</code> or <code>X-Api-Key</code>.</p>
<h2>Stream events</h2><ul><li><code>progress</code> {stage, message, …}</li><li><code>source</code> a source object</li><li><code>answer</code> {delta}</li><li><code>error</code> {code, message}</li><li><code>final</code> the envelope, always last</li></ul>
${rows.join("\n")}</body></html>`;
}
