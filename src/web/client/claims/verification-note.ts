import { h } from "../dom.ts";
import type { Evidence, Verification } from "./claim-match.ts";

function quoteLink(href: string | null, external: boolean): HTMLElement | null {
  if (!href) return null;
  const attrs = external ? { href, rel: "noopener noreferrer", target: "_blank" } : { href, "data-link": true };
  return h("span", {}, " · ", h("a", attrs, external ? "open the page at the quote" : "see it in the document"));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The answer's footer: how many claims a quote backs, and what the dotted underline means
 * when some sentence carries it (`marked`: how many the page marked). An extractive answer's
 * claims are its quotes (`quoted`: the sources it quotes, null for a model's answer), so it
 * says where they come from instead of counting them as backed
 * (docs/decisions/0141-an-extractive-answer-says-it-quotes.md).
 */
export function verificationNote(v: Verification, marked: number, quoted: number | null = null): HTMLElement {
  const parts: (Node | string)[] = [
    h(
      "strong",
      {},
      quoted !== null
        ? quoted
          ? `Quoted verbatim from ${plural(quoted, "source", "sources")}; no model wrote this answer`
          : "Nothing quoted: no source found is on the question"
        : v.claims
          ? `${v.supported} of ${plural(v.claims, "claim", "claims")} backed by a quote`
          : "No claims to check",
    ),
  ];
  if (v.unsupported > 0)
    parts.push(` · ${plural(v.unsupported, "citation", "citations")} removed: the source did not say it`);
  if (v.contradicted)
    parts.push(
      ` · ${plural(v.contradicted, "claim", "claims")} contradicted: what the source says instead is under it`,
    );
  if (v.recited)
    parts.push(
      " · ",
      h("span", { class: "recited" }, plural(v.recited, "marker", "markers")),
      " moved to the source that backs the sentence",
    );
  if (marked > 0)
    parts.push(" · ", h("span", { class: "unbacked" }, "dotted underline"), ": no source backs this sentence");
  if (v.cited > 0) parts.push(" · hover, focus or tap a marker to see its quote");
  return h("p", { class: "verification", "aria-label": "Verification" }, ...parts);
}

/** What a quote does for its claim, in words: backs it, says otherwise, or backs it where the check moved the marker. */
function evidenceLine(e: Evidence): string {
  if (e.verdict === "contradicted") return `says otherwise than “${e.claim}”`;
  return `backs “${e.claim}”${e.recited ? " · marker moved here by the claim check" : ""}`;
}

/**
 * Under a source in the list: the quotes it gave the answer, each with its claim and score,
 * and a link to the quote in its place when `linkOf` gives one.
 */
export function sourceQuotes(
  evidence: Evidence[] | undefined,
  linkOf: (quote: string) => string | null,
  external: boolean,
): HTMLElement | null {
  if (!evidence?.length) return null;
  return h(
    "details",
    { class: "quotes" },
    h("summary", {}, plural(evidence.length, "quote", "quotes")),
    h(
      "ul",
      {},
      ...evidence.map((e) =>
        h(
          "li",
          {},
          h("blockquote", { class: "quote" }, e.quote),
          h("span", { class: "muted" }, `${evidenceLine(e)} · support ${e.support.toFixed(2)}`),
          quoteLink(linkOf(e.quote), external),
        ),
      ),
    ),
  );
}
