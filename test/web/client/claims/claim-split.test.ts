import { describe, expect, test } from "bun:test";
import { sentenceRanges } from "../../../../src/web/client/claims/claim-split.ts";

const pieces = (text: string) => sentenceRanges(text).map(([a, b]) => text.slice(a, b));

/** Where the answer's sentences lie in a block's Markdown: the spans the evidence is matched to. */
describe("sentences of a Markdown block", () => {
  test("a marker after the full stop stays with the sentence before it (the extractive writer's form)", () => {
    expect(pieces("Dendrites grow at high current. [S1] Stack pressure slowed the growth. [S1][S2]")).toEqual([
      "Dendrites grow at high current. [S1]",
      "Stack pressure slowed the growth. [S1][S2]",
    ]);
  });

  test("a marker before the full stop (the model's form)", () => {
    expect(pieces("Voids form at the interface [S2]. Coatings lowered the resistance [S1].")).toEqual([
      "Voids form at the interface [S2].",
      "Coatings lowered the resistance [S1].",
    ]);
  });

  test("no sentence ends inside bold text, a code span or a link", () => {
    expect(pieces("It is **very hot. Really** here [S1]. See [the note. Two](https://x.org/a) now.")).toEqual([
      "It is **very hot. Really** here [S1].",
      "See [the note. Two](https://x.org/a) now.",
    ]);
  });

  test("Chinese sentences end at 。 with no space", () => {
    expect(pieces("固态电池受枝晶限制[S1]。界面电阻很高[S2]。")).toEqual([
      "固态电池受枝晶限制[S1]。",
      "界面电阻很高[S2]。",
    ]);
  });

  test("one sentence, and white space at the edges left out", () => {
    expect(sentenceRanges("  Only one claim here [S1]  ")).toEqual([[2, 26]]);
    expect(sentenceRanges("")).toEqual([]);
  });
});
