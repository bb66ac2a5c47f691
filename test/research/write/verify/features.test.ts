import { describe, expect, test } from "bun:test";
import { checkClaim, evidenceSentences, prepareEvidence } from "../../../../src/research/write/verify/check-claim.ts";
import { CUES } from "../../../../src/research/write/verify/cues.ts";
import { claimFeatures, FEATURE_NAMES, type FeatureName } from "../../../../src/research/write/verify/features.ts";

const features = (claim: string, text: string, language = "en") => {
  const ev = prepareEvidence(evidenceSentences(text), language);
  const row = claimFeatures(claim, ev, checkClaim(claim, ev));
  return (name: FeatureName) => row[FEATURE_NAMES.indexOf(name)]!;
};

const TEXT =
  "Statins were studied in 4,000 adults over ten years. Statin use increased the risk of diabetes by 9 percent in older adults. The trial was run in Sweden.";

describe("each contradiction cue, on a claim against a quote", () => {
  const cases: [cue: string, claim: string, quote: string, same: string][] = [
    ["denied", "Aspirin does not lower fever.", "Aspirin lowers fever.", "Aspirin never lowers fever."],
    ["denied", "The drug fails to reduce pain.", "The drug reduces pain.", "The drug failed to reduce pain."],
    ["denied", "There is a lack of evidence.", "There is evidence.", "Evidence is lacking entirely, a lack of data."],
    [
      "increase",
      "Statins increase diabetes risk.",
      "Statins decrease diabetes risk.",
      "Statins raise and increase it.",
    ],
    [
      "turned",
      "Alirocumab reduces the clearance rate of apo(a).",
      "Plasma LDL fell by half, while apo(a) clearance tended to increase.",
      "The clearance rate of apo(a) was reduced while LDL rose.",
    ],
    ["higher", "Mortality was higher in men.", "Mortality was lower in men.", "Mortality was greater in men."],
    ["more", "Men smoke more than women.", "Men smoke less than women.", "Men smoke more cigars."],
    ["promotes", "IL-6 promotes tumour growth.", "IL-6 inhibits tumour growth.", "IL-6 activates tumour growth."],
    ["regulates", "Hypoxia upregulates VEGF.", "Hypoxia down-regulates VEGF.", "Hypoxia up-regulates VEGF."],
    [
      "associated",
      "Coffee is associated with longevity.",
      "Coffee was not associated with longevity.",
      "Coffee correlates with longevity.",
    ],
    ["risk", "Vitamin D raises fracture risk.", "Vitamin D protects against fractures.", "Vitamin D is a risk."],
    ["quantifier", "All patients responded.", "Some patients responded.", "Every patient responded."],
    ["number", "The yield rose to 61 percent.", "The yield rose to 72 percent.", "The yield rose to 61 percent."],
    ["unit", "Patients took 5 mg daily.", "Patients took 5 g daily.", "Patients took 5 mg a day."],
  ];
  for (const [cue, claim, against, agrees] of cases)
    test(`${cue}: "${claim}" against "${against}"`, () => {
      expect(CUES[cue]!(claim, against)).toBe(1);
      expect(CUES[cue]!(claim, agrees)).toBe(0);
      expect(CUES[cue]!(claim, claim)).toBe(0);
    });

  test("a number the quote never contradicts (it states none) is no clash", () => {
    expect(CUES.number!("The yield rose to 61 percent.", "The yield rose sharply.")).toBe(0);
    expect(CUES.number!("The yield rose to 1,000 tonnes.", "It reached 1000 tonnes.")).toBe(0);
  });
});

describe("the feature row of a claim against a source", () => {
  test("a claim flipping the source's direction word: full overlap, the direction cue on", () => {
    const f = features("Statin use decreased the risk of diabetes by 9 percent in older adults.", TEXT);
    expect(f("overlap")).toBeGreaterThan(0.7);
    expect(f("increase")).toBe(1);
    expect(f("verbatim")).toBe(0);
    expect(f("numberMiss")).toBe(0);
  });

  test("the claim word for word: verbatim, full overlap, phrase and bigrams, no cue", () => {
    const f = features("Statin use increased the risk of diabetes by 9 percent in older adults.", TEXT);
    expect(f("verbatim")).toBe(1);
    expect(f("support")).toBe(1);
    expect(f("phrase")).toBe(1);
    expect(f("bigram")).toBe(1);
    expect(f("position")).toBe(0.5);
    for (const cue of Object.keys(CUES)) expect(f(cue as FeatureName)).toBe(0);
  });

  test("another number: the number missing and the number cue on; a name the source lacks counted", () => {
    const f = features("Statin use increased the risk of diabetes by 20 percent in Norway.", TEXT);
    expect(f("numberMiss")).toBe(1);
    expect(f("number")).toBe(1);
    expect(f("nameMiss")).toBe(1);
  });

  test("a paraphrase in other words: overlap but a shorter phrase, no cue", () => {
    const f = features("In older adults, diabetes risk rose by 9 percent with statin use.", TEXT);
    expect(f("overlap")).toBeGreaterThan(0.5);
    expect(f("phrase")).toBeLessThan(0.5);
    expect(f("polarity") + f("increase") + f("number")).toBe(0);
  });

  test("cues are English only: a German negation reads 0", () => {
    const f = features("Die Regierung hat keine Ziele beschlossen.", "Die Regierung hat Ziele beschlossen.", "de");
    expect(f("polarity")).toBe(0);
  });

  test("every value is in [0, 1] and the row has one value per name", () => {
    const ev = prepareEvidence(evidenceSentences(TEXT), "en");
    const claim = "Statins were studied in 4,000 adults.";
    const row = claimFeatures(claim, ev, checkClaim(claim, ev));
    expect(row.length).toBe(FEATURE_NAMES.length);
    for (const v of row) expect(v >= 0 && v <= 1).toBe(true);
  });
});
