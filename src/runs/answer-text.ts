import type { Envelope, Source } from "../contract/envelope.ts";

/**
 * Where a source is: its address, the venue of a paper, the collection and document of a
 * local one; for one withheld from an earlier run (src/runs/withhold.ts), why.
 */
function whereFrom(s: Source): string {
  if (s.withheld) return s.snippet;
  if (s.type === "local") return `${s.collection} · ${s.doc_id}${s.url.startsWith("local:") ? "" : `  (${s.url})`}`;
  return `${s.url}${s.type === "academic" ? `  (${[s.venue, s.published_at].filter(Boolean).join(", ")})` : ""}`;
}

/** The numbered sources as people read them under an answer: `[S1] title` and where it is. */
export function sourcesText(sources: Source[]): string {
  return sources.map((s) => `[${s.id}] ${s.title}\n     ${whereFrom(s)}`).join("\n");
}

/** An answered run as text: the answer's Markdown, then its sources (`ask`, MCP's `research`). */
export function answerText(env: Envelope): string {
  return `${env.answer ?? ""}\n\nSources:\n${sourcesText(env.sources)}`;
}

/** A failed run's reasons, one `code: message` each. */
export function errorsText(env: Pick<Envelope, "errors">): string {
  return env.errors.map((e) => `${e.code}: ${e.message}`).join("; ");
}
