import type { Envelope, Evidence, Source, Verdict } from "../contract/envelope.ts";
import { verdictPhrases } from "../research/engine/verify-stage.ts";

/**
 * Where a source is: its address, the venue of a paper, the collection and document of a
 * local one; for one withheld from an earlier run (src/runs/withhold/withhold.ts), why.
 */
function whereFrom(s: Source): string {
  if (s.withheld) return s.snippet;
  if (s.type === "local") return `${s.collection} · ${s.doc_id}${s.url.startsWith("local:") ? "" : `  (${s.url})`}`;
  return `${s.url}${s.type === "academic" ? `  (${[s.venue, s.published_at].filter(Boolean).join(", ")})` : ""}`;
}

/** Text as read for comparing a claim with its quote: letters and digits, lower-cased. */
const bare = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** What a quote does for its claim, by verdict: a partial or contradicted one never reads as "backs". */
const DOES: Record<Verdict, string> = {
  supported: "backs:",
  partial: "partly backs:",
  unsupported: "does not back:",
  contradicted: "says otherwise:",
};

/**
 * The claim a quote goes with, what it does for it and the verdict in words, with whether the
 * check moved the marker here (docs/decisions/0173-verdicts-in-words-in-the-timeline-ask-and-mcp.md);
 * a run checked before verdicts says "backs:" and its support only.
 */
function claimLine(e: Evidence): string {
  const said = [e.verdict, e.recited ? "marker moved here by the check" : "", `support ${e.support.toFixed(2)}`];
  return `${e.verdict ? DOES[e.verdict] : "backs:"} ${e.claim} (${said.filter(Boolean).join(", ")})`;
}

/**
 * The quotes that back the claims citing a source, one a line, with the claim they back
 * (README "Claims you can check"); a claim that is its quote (an extractive answer's) is
 * printed once.
 */
function quotesText(s: Source): string {
  return (s.evidence ?? [])
    .map((e) =>
      bare(e.claim) === bare(e.quote)
        ? `
     > "${e.quote}"`
        : `
     > "${e.quote}"
       ${claimLine(e)}`,
    )
    .join("");
}

/** The numbered sources as people read them under an answer: `[S1] title`, where it is, and its quotes. */
export function sourcesText(sources: Source[]): string {
  return sources.map((s) => `[${s.id}] ${s.title}\n     ${whereFrom(s)}${quotesText(s)}`).join("\n");
}

const sourcesCount = (n: number) => `${n} ${n === 1 ? "source" : "sources"}`;

/**
 * What the claim check found, in a line. An extractive answer's claims are quotes, so it says
 * that instead of counting them as backed; one that quotes nothing says it in its text
 * (docs/decisions/0141-an-extractive-answer-says-it-quotes.md).
 */
function checkedText(env: Envelope): string {
  const v = env.verification;
  if (!v) return "";
  if (env.writer === "extractive")
    return env.sources.length
      ? `\n\nQuoted verbatim from ${sourcesCount(env.sources.length)} (no model wrote this answer).`
      : "";
  return `\n\nChecked: ${v.supported} of ${v.claims} claims backed by a quote from their source${v.unsupported ? `; ${v.unsupported} uncited as unsupported` : ""}${verdictPhrases(
    v,
  )
    .map((p) => `; ${p}`)
    .join("")}.`;
}

/** An answered run as text: the answer's Markdown, the check's line, then its sources (`ask`, MCP's `research`). */
export function answerText(env: Envelope): string {
  const sources = env.sources.length ? `\n\nSources:\n${sourcesText(env.sources)}` : "";
  return `${env.answer ?? ""}${checkedText(env)}${sources}`;
}

/** A failed run's reasons, one `code: message` each. */
export function errorsText(env: Pick<Envelope, "errors">): string {
  return env.errors.map((e) => `${e.code}: ${e.message}`).join("; ");
}
