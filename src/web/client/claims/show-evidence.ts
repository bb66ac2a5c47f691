import type { Source } from "../../../contract/envelope.ts";
import { hostOf } from "../dom.ts";
import { type Evidence, evidenceFor, indexEvidence, isBacked, isClaim, type Verification } from "./claim-match.ts";
import { type QuoteInfo, quotePopovers } from "./quote-popover.ts";
import { saysOtherwise } from "./says-otherwise.ts";

/** A source as a finished run returns it: with the quotes that back the claims citing it. */
export type CheckedSource = Source & { evidence?: Evidence[] };

const whereOf = (s: Source) =>
  s.type === "local" ? `${s.collection ?? "collection"} · ${s.doc_id ?? s.url}` : hostOf(s.url);

/**
 * Shows a rendered answer's evidence: each marker's quote in a popover, a marker the check
 * moved to this source as such (`.recited`), what a contradicting source says under its
 * sentence, and, when the run was verified, each claim without a backed citation marked
 * (`.unbacked`). Returns how many sentences were marked.
 */
export function showEvidence(answer: HTMLElement, sources: CheckedSource[], verification: Verification | null): number {
  // A source withheld from this reader gives no quotes, whatever an older record kept.
  const index = indexEvidence(sources.filter((s) => !s.withheld));
  const byId = new Map(sources.map((s) => [s.id, s]));
  const infos = new WeakMap<HTMLAnchorElement, QuoteInfo>();
  let unbacked = 0;
  for (const span of answer.querySelectorAll<HTMLElement>("span.claim")) {
    const sentence = span.dataset.claim ?? "";
    let backed = false;
    for (const cite of span.querySelectorAll<HTMLAnchorElement>("a.cite")) {
      const source = byId.get((cite.getAttribute("href") ?? "").replace(/^#src-/, ""));
      if (!source) continue;
      const ev = evidenceFor(index, source.id, sentence);
      backed ||= isBacked(ev);
      if (ev?.recited) {
        cite.classList.add("recited");
        cite.setAttribute("aria-label", `source ${source.id.slice(1)}, moved here by the claim check`);
      }
      infos.set(cite, {
        sourceId: source.id,
        title: source.title,
        where: whereOf(source),
        quote: ev?.quote ?? null,
        support: ev?.support ?? null,
        backed: isBacked(ev),
        recited: !!ev?.recited,
      });
    }
    span.after(...saysOtherwise(index, sentence));
    // A run from before the check, or a stream still being written, has nothing to say here; nor
    // a check that counted no claim (an extractive answer saying no source is on the question).
    if (verification?.claims && !backed && isClaim(sentence)) {
      span.classList.add("unbacked");
      span.title = "No source backs this sentence";
      unbacked++;
    }
  }
  quotePopovers(answer, (cite) => infos.get(cite) ?? null);
  return unbacked;
}
