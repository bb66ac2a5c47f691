import { describe, expect, test } from "bun:test";
import { Bm25 } from "../../../src/research/rank/bm25.ts";
import { selectPassages } from "../../../src/research/rank/select.ts";
import { terms } from "../../../src/research/rank/tokenize.ts";
import type { Source } from "../../../src/research/types.ts";
import { finalizeCitations, markersIn } from "../../../src/research/write/citations.ts";
import { splitPassages, splitSentences } from "../../../src/text/passages.ts";

const src = (n: number): Source => ({
  id: `S${n}`,
  title: `T${n}`,
  url: `https://e${n}.example/`,
  type: "web",
  provider: "searxng",
  snippet: "",
});
const filler = (i: number) =>
  `Unrelated text about gardening number ${i} and tomatoes, soil, water and sunshine for plants in the summer months.`;

describe("tokens and BM25", () => {
  test("unicode terms, lower case, stop words out, light English stemming, CJK bigrams", () => {
    expect(terms("The editors EDITED studies of Übergrößen")).toEqual(["editor", "edit", "study", "übergrößen"]);
    expect(terms("量子計算")).toEqual(["量子", "子計", "計算"]);
  });

  test("BM25 puts the relevant passage first", () => {
    const s = new Bm25([
      "Cats sleep most of the day in warm places.",
      "Base editors convert single DNA bases without breaks.",
      "The stock market rose today.",
    ]).scores("how do base editors change DNA");
    expect(s.indexOf(Math.max(...s))).toBe(1);
    expect(s[0]).toBe(0);
  });
});

describe("passages", () => {
  test("sizes stay within bounds and the text is kept", () => {
    const text = Array.from(
      { length: 30 },
      (_, i) => `Sentence number ${i} talks about topic ${i % 3} in some detail here.`,
    ).join(" ");
    const ps = splitPassages(text);
    expect(ps.length).toBeGreaterThan(1);
    for (const p of ps) expect(p.split(/\s+/).length).toBeLessThanOrEqual(170);
    expect(ps.join(" ").replace(/\s+/g, " ")).toBe(text);
  });

  test("a heading stands a blank line apart in a passage and never runs into the next sentence", () => {
    const [p] = splitPassages(
      "Q3 review: solid-state cells\n\nDendrites grow through the ceramic electrolyte at high current.",
    );
    expect(p).toBe("Q3 review: solid-state cells\n\nDendrites grow through the ceramic electrolyte at high current.");
    expect(splitSentences(p!)).toEqual([
      "Q3 review: solid-state cells",
      "Dendrites grow through the ceramic electrolyte at high current.",
    ]);
  });

  test("run-on text without sentence ends is cut into windows", () => {
    const text = Array.from({ length: 700 }, (_, i) => `w${i}`).join(" ");
    const ps = splitPassages(text);
    expect(ps.length).toBeGreaterThanOrEqual(5);
    for (const p of ps) expect(p.split(" ").length).toBeLessThanOrEqual(170);
    expect(ps.join(" ")).toBe(text);
  });

  test("sentences: abbreviations, decimals and initials hold; CJK splits without spaces", () => {
    expect(
      splitSentences(
        "Water boils at 100 °C at sea level. At 3.5 km it boils near 88 °C, e.g. in La Paz. J. R. Smith measured it first.",
      ),
    ).toEqual([
      "Water boils at 100 °C at sea level.",
      "At 3.5 km it boils near 88 °C, e.g. in La Paz.",
      "J. R. Smith measured it first.",
    ]);
    expect(splitSentences("水は海面で百度で沸騰します。高い山ではもっと低い温度で沸騰します。")).toEqual([
      "水は海面で百度で沸騰します。",
      "高い山ではもっと低い温度で沸騰します。",
    ]);
  });
});

describe("selectPassages", () => {
  test("at most maxSources, the relevant document first, unrelated ones left out", () => {
    const docs = Array.from({ length: 8 }, (_, i) => ({
      key: String(i),
      title: `d${i}`,
      text:
        i === 5
          ? "Prime editing uses a reverse transcriptase fused to Cas9 nickase. Prime editing can make all twelve base substitutions."
          : filler(i),
    }));
    docs[2]!.text += " Gardeners rarely talk about prime numbers.";
    const sel = selectPassages(docs, "what is prime editing", ["prime editing reverse transcriptase"], {
      maxSources: 5,
    });
    expect(sel.map((s) => s.key)).toEqual(["5", "2"]);
  });

  test("maxSources caps the sources when many match", () => {
    const docs = Array.from({ length: 8 }, (_, i) => ({
      key: String(i),
      title: `d${i}`,
      text: `Prime editing note ${i}: ${filler(i)}`,
    }));
    expect(selectPassages(docs, "prime editing", [], { maxSources: 5 })).toHaveLength(5);
    expect(selectPassages(docs, "prime editing", [], { maxSources: 2 })).toHaveLength(2);
  });

  test("the character budget and perSourceMax hold; passages come back in document order", () => {
    const para = (i: number, hit: boolean) =>
      `Paragraph ${i} ${hit ? "covers prime editing and its reverse transcriptase in depth" : "is about something else entirely, like the weather and the tides"}. ${"More words follow here to make the paragraph longer. ".repeat(12)}`;
    const docs = [0, 1, 2].map((d) => ({
      key: `k${d}`,
      title: `doc ${d}`,
      text: Array.from({ length: 8 }, (_, i) => para(i, i % 2 === 1)).join("\n"),
    }));
    for (const budget of [1500, 4000, 12_000]) {
      const sel = selectPassages(docs, "prime editing reverse transcriptase", [], {
        budget,
        perSourceMax: 2,
      });
      const used = sel.reduce((a, s) => a + s.passages.join("").length, 0);
      expect(used).toBeLessThanOrEqual(budget);
      for (const s of sel) {
        expect(s.passages.length).toBeLessThanOrEqual(2);
        const text = docs.find((d) => d.key === s.key)!.text.replace(/\s+/g, " ");
        const at = s.passages.map((p) => text.indexOf(p));
        expect(at.every((x) => x >= 0)).toBe(true);
        expect(at).toEqual([...at].sort((a, b) => a - b));
        expect(s.passages.every((p) => p.includes("prime editing"))).toBe(true);
      }
    }
  });

  test("nothing to read gives nothing", () => {
    expect(selectPassages([{ key: "a", title: "t", text: "" }], "q", [])).toEqual([]);
  });
});

describe("citations", () => {
  test("[S9] of 3 is dropped; sources renumbered by first citation; only cited ones returned", () => {
    const r = finalizeCitations("Claim A [S3]. Claim B [S9]. Claim C [S1][S3].", [src(1), src(2), src(3)]);
    expect(r.answer).toBe("Claim A [S1]. Claim B. Claim C [S2][S1].");
    expect(r.sources.map((s) => [s.id, s.url])).toEqual([
      ["S1", "https://e3.example/"],
      ["S2", "https://e1.example/"],
    ]);
  });

  test("grouped markers [S2, S3], [S2,S3], [S2;S3], ranges, lower case and full-width brackets", () => {
    const r = finalizeCitations("One [S2, S3]. Two [s3;S4]. Three 【S4】. Four [S2,S3]. Five [S1-S3].", [
      src(1),
      src(2),
      src(3),
      src(4),
    ]);
    expect(r.answer).toBe("One [S1][S2]. Two [S2][S3]. Three [S3]. Four [S1][S2]. Five [S1][S2][S4].");
    expect(r.sources.map((s) => s.url)).toEqual([
      "https://e2.example/",
      "https://e3.example/",
      "https://e4.example/",
      "https://e1.example/",
    ]);
  });

  test("dropping markers leaves no empty brackets or double spaces, and touches nothing else", () => {
    const answer =
      "Lead [S9] claim [S1] [S1].\n\n- item [S7]\n  - nested  item\n\nVoici : un fait ([S8]) [S2]\n[S9] Next line.";
    const r = finalizeCitations(answer, [src(1), src(2)]);
    expect(r.answer).toBe("Lead claim [S1].\n\n- item\n  - nested  item\n\nVoici : un fait [S2]\nNext line.");
  });

  test("contract invariant: every marker names a listed source, every listed source is cited, at most 5", () => {
    const r = finalizeCitations("A [S5] B [S2] C [S7] D [S2, S1] E [S4] F [S6] G [S3]", [1, 2, 3, 4, 5, 6].map(src));
    expect([...new Set(markersIn(r.answer))].sort()).toEqual(r.sources.map((s) => s.id).sort());
    expect(r.sources).toHaveLength(5);
    expect(r.sources.map((s) => s.id)).toEqual(["S1", "S2", "S3", "S4", "S5"]);
  });

  test("an answer citing nothing keeps its text and has no sources (the caller decides)", () => {
    expect(finalizeCitations("Nothing cited here [S9].", [src(1)])).toEqual({
      answer: "Nothing cited here.",
      sources: [],
      was: [],
    });
  });
});
