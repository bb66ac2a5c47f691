import { describe, expect, test } from "bun:test";
import { SUPPORTED_AT as CONTRACT_SUPPORTED_AT } from "../../../../src/contract/support.ts";
import {
  claimKey,
  type Evidence,
  evidenceFor,
  indexEvidence,
  isBacked,
  isClaim,
  SUPPORTED_AT,
} from "../../../../src/web/client/claims/claim-match.ts";

const ev = (claim: string, quote: string, support: number): Evidence => ({ claim, quote, support });

const SOURCES = [
  {
    id: "S1",
    evidence: [
      ev("Dendrites grow through the ceramic electrolyte at high current.", "Dendrites … grow through", 0.91),
      ev("Cells shorted after 400 cycles.", "Our Q3 cells shorted after 40 cycles", 0.18),
    ],
  },
  { id: "S2", evidence: [ev("The interface has a high resistance.", "The interface … has a high resistance", 0.77)] },
  { id: "S3" },
];

/** Which quote backs which marker: by the claim's text and the source's id. */
describe("matching evidence to the answer's sentences", () => {
  test("the web app counts a citation as backed exactly where the verifier does", () => {
    expect(SUPPORTED_AT).toBe(CONTRACT_SUPPORTED_AT);
    expect(isBacked(ev("a", "b", SUPPORTED_AT))).toBe(true);
    expect(isBacked(ev("a", "b", SUPPORTED_AT - 0.01))).toBe(false);
    expect(isBacked(null)).toBe(false);
    // A quote that says otherwise shares the claim's words (a high support) and backs nothing.
    expect(isBacked({ ...ev("a", "b", 0.8), verdict: "contradicted" })).toBe(false);
    expect(isBacked({ ...ev("a", "b", 0.8), verdict: "supported" })).toBe(true);
  });

  test("a claim read from Markdown has the key of the verifier's plain claim", () => {
    const plain = "Dendrites grow through the ceramic electrolyte at high current.";
    expect(claimKey("Dendrites grow through the **ceramic** electrolyte at high current [S1].")).toBe(claimKey(plain));
    expect(claimKey("Dendrites grow through the ceramic electrolyte at high current. [S1][S2]")).toBe(claimKey(plain));
    expect(claimKey("See [the review](https://x.org/r) now")).toBe("seethereviewnow");
    expect(claimKey("固态电池受枝晶限制[S1]。")).toBe("固态电池受枝晶限制");
  });

  test("the marker's own source's entry for this sentence, never another source's", () => {
    const index = indexEvidence(SOURCES);
    const sentence = "Dendrites grow through the *ceramic* electrolyte at high current. [S1]";
    expect(evidenceFor(index, "S1", sentence)?.support).toBe(0.91);
    expect(evidenceFor(index, "S2", sentence)).toBeNull();
    expect(evidenceFor(index, "S3", sentence)).toBeNull();
    expect(evidenceFor(index, "S9", sentence)).toBeNull();
    expect(evidenceFor(index, "S1", "Cells shorted after 400 cycles [S1].")?.support).toBe(0.18);
  });

  test("where the verifier cut sentences otherwise: the claim that holds this one, or that it holds", () => {
    const index = indexEvidence(SOURCES);
    // The browser split one claim in two; the verifier kept it whole.
    expect(evidenceFor(index, "S1", "Dendrites grow through the ceramic electrolyte")?.support).toBe(0.91);
    // The browser kept two claims as one sentence.
    expect(evidenceFor(index, "S2", "The interface has a high resistance; coatings lower it [S2].")?.support).toBe(
      0.77,
    );
    // Too short to say which claim it belongs to.
    expect(evidenceFor(index, "S2", "The interface")).toBeNull();
  });

  test("a lead-in to what follows is not a claim; a heading-less line of words is", () => {
    expect(isClaim("Here is what the sources say:")).toBe(false);
    expect(isClaim("以下是来源中的相关内容：")).toBe(false);
    expect(isClaim("[S1]")).toBe(false);
    expect(isClaim("Dendrites grow [S1].")).toBe(true);
  });
});
