import type { OpenApiDocument } from "../contract/openapi.ts";
import type { JsonSchema } from "../contract/openapi-schemas.ts";
import { escapeHtml as esc, inlineMarkdown as md } from "./inline-markdown.ts";
import { exampleOf, resolve, typeWords } from "./schema-example.ts";

type Schemas = Record<string, JsonSchema>;
type Media = { schema?: JsonSchema; example?: unknown; examples?: Record<string, { value?: unknown }> };
type Op = {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[];
  responses?: Record<string, { description?: string }>;
  requestBody?: { required?: boolean; content?: Record<string, Media> };
};

const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;overflow-wrap:anywhere}
code{background:#f2f4f7;padding:.1rem .3rem;border-radius:4px}pre{background:#f2f4f7;padding:.75rem;border-radius:6px;overflow-x:auto}pre code{padding:0}
section{border-top:1px solid #dde;padding:.5rem 0}h2{font-size:1.05rem}h3{font-size:.95rem;margin-bottom:.25rem}
table{border-collapse:collapse;width:100%;font-size:.95rem}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #dde;vertical-align:top}th{white-space:nowrap}td{overflow-wrap:break-word}
@media (max-width:40rem){body{margin:1rem auto}table,tbody,tr,td{display:block}thead{display:none}tr{padding:.3rem 0;border-bottom:1px solid #dde}td{border:0;padding:.1rem 0;overflow-wrap:anywhere}td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}`;

function authWords(op: Op): string {
  return (
    (op.security ?? [])
      .flatMap((s) => Object.keys(s))
      .map((k) => (k === "session" ? "session cookie" : "API key"))
      .filter((v, i, a) => a.indexOf(v) === i)
      .join(" or ") || "none"
  );
}

function parameters(op: Op): string {
  if (!op.parameters?.length) return "";
  const rows = op.parameters.map(
    (p) =>
      `<tr><td><code>${esc(p.name)}</code></td><td data-label="In">${esc(p.in)}${p.required ? ", required" : ""}</td><td>${md(p.description ?? "")}</td></tr>`,
  );
  return `<h3>Parameters</h3><table><thead><tr><th>Name</th><th>In</th><th>Description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The fields of an object body: name, type, whether it must be sent, what it is. */
function fields(schema: JsonSchema, schemas: Schemas): string {
  const { schema: s } = resolve(schema, schemas);
  const props = Object.entries((s.properties ?? {}) as Schemas);
  if (!props.length) return "";
  const required = new Set((s.required as string[] | undefined) ?? []);
  const rows = props.map(
    ([name, p]) =>
      `<tr><td><code>${esc(name)}</code></td><td data-label="Type">${md(typeWords(p, schemas))}</td><td data-label="Required">${required.has(name) ? "yes" : "no"}</td><td>${md(String(resolve(p, schemas).schema.description ?? ""))}</td></tr>`,
  );
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The request body: its media type, its fields, and an example (the operation's own, else one made from the schema). */
function requestBody(op: Op, schemas: Schemas): string {
  const entries = Object.entries(op.requestBody?.content ?? {});
  if (!entries.length) return "";
  return entries
    .map(([type, media]) => {
      const schema = media.schema ?? {};
      const own = media.example ?? Object.values(media.examples ?? {})[0]?.value;
      const intro = `<h3>Request body</h3><p><code>${esc(type)}</code>${op.requestBody?.required ? ", required" : ", optional"}. ${md(String(resolve(schema, schemas).schema.description ?? ""))}</p>`;
      // A multipart body is not JSON: its fields say what to send, an example in JSON would mislead.
      const example =
        type === "application/json"
          ? `<p>Example:</p><pre><code>${esc(JSON.stringify(own ?? exampleOf(schema, schemas), null, 2))}</code></pre>`
          : "";
      return intro + fields(schema, schemas) + example;
    })
    .join("");
}

function operation(method: string, path: string, op: Op, schemas: Schemas): string {
  const responses = Object.entries(op.responses ?? {})
    .map(([code, r]) => `<li><code>${esc(code)}</code> ${md(r.description ?? "")}</li>`)
    .join("");
  const id = op.operationId ? ` id="${esc(op.operationId)}"` : "";
  return `<section${id}><h2><code>${method.toUpperCase()} ${esc(path)}</code></h2><p>${md(op.summary ?? "")}</p>${op.description ? `<p>${md(op.description)}</p>` : ""}<p><strong>Auth:</strong> ${esc(authWords(op))}</p>${parameters(op)}${requestBody(op, schemas)}<h3>Responses</h3><ul>${responses}</ul></section>`;
}

/**
 * A readable API reference rendered on the server from the same OpenAPI document:
 * no CDN, no script, so it works air-gapped and under a strict CSP.
 */
export function apiReferenceHtml(doc: OpenApiDocument): string {
  const schemas = doc.components.schemas;
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops as Record<string, Op>))
      rows.push(operation(method, path, op, schemas));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>research-query API reference</title>
<style>${PAGE_STYLE}</style></head>
<body><h1>research-query API</h1><p>${md(doc.info.description)} Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${esc(doc.openapi)}). Send keys as <code>Authorization: Bearer rq-…</code> or <code>X-Api-Key</code>.</p>
<h2>Stream events</h2><ul><li><code>progress</code> {stage, message, …}</li><li><code>source</code> a source object</li><li><code>answer</code> {delta}</li><li><code>error</code> {code, message}</li><li><code>final</code> the envelope, always last</li></ul>
${rows.join("\n")}</body></html>`;
}
