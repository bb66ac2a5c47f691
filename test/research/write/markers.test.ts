import { expect, test } from "bun:test";
import { finalizeCitations } from "../../../src/research/write/citations.ts";
import { markerGroups, neutraliseMarkers } from "../../../src/research/write/markers.ts";

const FORMS = [
  "[S2]",
  "[ S2 ]",
  "[s2]",
  "[S1-S3]",
  "[S1–S3]",
  "[S2 and S3]",
  "[S2, S3]",
  "[S2;S3]",
  "[S2 & S3]",
  "[S1, 2]",
  "【S1】",
  "[S1】",
];

test("what the parser reads as a marker, the neutraliser cuts; nested forms too", () => {
  for (const f of FORMS) {
    const text = `The pond leaks ${f} into the river.`;
    expect(markerGroups(text), f).toHaveLength(1);
    const clean = neutraliseMarkers(text);
    expect(clean, f).toBe("The pond leaks into the river.");
    const { answer, sources } = finalizeCitations(
      `${clean} [S1]`,
      [1, 2, 3].map((n) => ({ id: `S${n}` }) as never),
    );
    expect(answer, f).toBe("The pond leaks into the river. [S1]");
    expect(sources).toHaveLength(1);
  }
  expect(neutraliseMarkers("numbers [S[S[S2]2]2] hidden")).toBe("numbers hidden");
  expect(neutraliseMarkers("a footnote [12] and [citation needed] stay")).toBe(
    "a footnote [12] and [citation needed] stay",
  );
});
