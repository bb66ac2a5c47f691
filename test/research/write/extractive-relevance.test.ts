import { describe, expect, test } from "bun:test";
import { nothingOnIt, relevantSources, sourceRelevance } from "../../../src/research/write/extractive-relevance.ts";
import type { WriterSource } from "../../../src/research/write/prompt.ts";

/** The floors of docs/decisions/0139-extractive-answers-quote-only-relevant-sources.md on small cases. */
const src = (id: string, text: string): WriterSource => ({
  id,
  title: id,
  url: `https://example.org/${id}`,
  passages: [text],
});

const BASE_EDITING = [
  src("S1", "Base editing changes one DNA letter without cutting both strands."),
  src("S2", "An adenine base editor makes base editing precise in our lab."),
  src("S3", "Reviews of base editing compare cytosine and adenine editors."),
  src("S4", "Base editing trials in patients began in 2022."),
];

describe("which sources an extractive answer quotes", () => {
  test("words that frame the question do not count: every source on base editing is kept", () => {
    expect(relevantSources("How does base editing work?", "en", BASE_EDITING).map((s) => s.id)).toEqual([
      "S1",
      "S2",
      "S3",
      "S4",
    ]);
  });

  test("sources that share only the question's common words: none is quoted", () => {
    const off = [
      src("S1", "Dose-limiting toxicity was seen in patients with solid tumours."),
      src("S2", "Limited information is available on Oct4 in solid tissues."),
      src("S3", "Survival in lymphomas was limited after solid organ transplants."),
    ];
    expect(Math.max(...sourceRelevance("What limits solid-state batteries?", "en", off))).toBeLessThan(0.1);
    expect(relevantSources("What limits solid-state batteries?", "en", off)).toEqual([]);
  });

  test("a source far under the best one is left out", () => {
    const mixed = [
      src("S1", "Dendrites limit solid-state batteries at high current."),
      src("S2", "Tomatoes are watered on Mondays; their growth is limited by the light."),
    ];
    expect(relevantSources("What limits solid-state batteries?", "en", mixed).map((s) => s.id)).toEqual(["S1"]);
  });

  test("a question with no word of substance quotes nothing; the sentence is in the question's language", () => {
    expect(relevantSources("What is it?", "en", BASE_EDITING)).toEqual([]);
    expect(nothingOnIt("de")).toStartWith("Die gefundenen Quellen enthalten nichts");
    expect(nothingOnIt("xx")).toBe(nothingOnIt("en"));
  });
});
