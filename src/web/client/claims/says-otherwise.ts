import { h } from "../dom.ts";
import { type Evidence, type EvidenceIndex, evidenceFor } from "./claim-match.ts";

/**
 * What a source the check found contradicting a sentence says instead: its marker is gone from
 * the answer, its item stays on the source, and the reader sees it under the sentence as
 * "S2 says otherwise: …", in words, never by colour alone
 * (docs/decisions/0171-a-contradicted-claim-shown-with-its-source-s-words.md).
 */
export function saysOtherwise(index: EvidenceIndex, sentence: string): HTMLElement[] {
  const notes: HTMLElement[] = [];
  for (const id of index.keys()) {
    const ev: Evidence | null = evidenceFor(index, id, sentence);
    if (ev?.verdict !== "contradicted") continue;
    notes.push(
      h(
        "span",
        { class: "otherwise", role: "note" },
        h("a", { href: `#src-${id}`, "aria-label": `source ${id.slice(1)}` }, id),
        " says otherwise: ",
        h("q", {}, ev.quote),
      ),
    );
  }
  return notes;
}
