import { expect, test } from "bun:test";
import type { Source } from "../../../../src/research/types.ts";
import { verifyInput } from "../../../../src/research/write/verify/verify-answer.ts";

// The second opinion's hook (README "Claims you can check"): a verdict given for a citation
// replaces the check's own before its marker is kept, removed or moved.
const source = (id: string): Source => ({
  id,
  title: id,
  url: `https://example.org/${id}`,
  type: "web",
  provider: "searxng",
  snippet: "",
});
const TEXTS: [string, string][] = [
  ["S1", "The bridge opened in 1932 after six years of work. It carries eight lanes of traffic."],
  ["S2", "The harbour tunnel opened in 1992 and carries four lanes beneath the water."],
];
const ANSWER = "The bridge opened in 1932 after six years of work [S1]. The harbour tunnel carries four lanes [S1].";
const input = (overrides?: [string, "supported" | "contradicted"][]) => ({
  answer: ANSWER,
  sources: [source("S1"), source("S2")],
  texts: TEXTS,
  language: "en",
  ...(overrides ? { overrides } : {}),
});

test("without overrides, the tunnel's marker moves to the page that says it; with them, the verdicts given decide and a backing one keeps its marker in place", () => {
  const own = verifyInput(input());
  expect(own.answer).toBe(
    "The bridge opened in 1932 after six years of work [S1]. The harbour tunnel carries four lanes [S2].",
  );
  expect(own.verification.recited).toBe(1);

  // The second opinion says the bridge's page contradicts the first claim and backs the second.
  const given = verifyInput(
    input([
      ["0:S1", "contradicted"],
      ["1:S1", "supported"],
    ]),
  );
  expect(given.answer).toBe(
    "The bridge opened in 1932 after six years of work. The harbour tunnel carries four lanes [S1].",
  );
  expect(given.sources.map((s) => s.evidence.map((e) => [e.claim.slice(0, 12), e.verdict]))).toEqual([
    [
      ["The bridge o", "contradicted"],
      ["The harbour ", "supported"],
    ],
  ]);
  expect(given.verification).toMatchObject({ supported: 1, contradicted: 1, recited: 0 });
});
