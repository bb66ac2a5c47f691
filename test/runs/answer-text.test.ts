import { expect, test } from "bun:test";
import type { Envelope } from "../../src/contract/envelope.ts";
import { answerText } from "../../src/runs/answer-text.ts";

// `ask` and MCP's `research` print a run as this text: a contradicted item is what its source
// says instead, never a quote that "backs" the claim.
test("a contradicted item reads as what the source says otherwise, and the check's line counts it", () => {
  const env = {
    request_id: "r",
    status: "ok",
    answer: "Statins lowered the risk. The trial enrolled 4,000 adults [S1].",
    sources: [
      {
        id: "S1",
        title: "Statins",
        url: "https://example.org/statins",
        type: "web",
        provider: "searxng",
        snippet: "",
        evidence: [
          {
            claim: "The trial enrolled 4,000 adults.",
            quote: "The trial followed 4,000 adults.",
            support: 1,
            verdict: "supported",
          },
          {
            claim: "Statins lowered the risk.",
            quote: "Statins raised the risk.",
            support: 0.8,
            verdict: "contradicted",
          },
        ],
      },
    ],
    usage: { latency_ms: 1, tokens_in: 0, tokens_out: 0 },
    errors: [],
    verification: { claims: 2, cited: 2, supported: 1, unsupported: 1, coverage: 0.5, contradicted: 1, recited: 0 },
  } as unknown as Envelope;
  const text = answerText(env);
  expect(text).toContain(
    '> "Statins raised the risk."\n       says otherwise: Statins lowered the risk. (contradicted, support 0.80)',
  );
  expect(text).toContain("backs: The trial enrolled 4,000 adults. (supported, support 1.00)");
  expect(text).toContain(
    "Checked: 1 of 2 claims backed by a quote from their source; 1 uncited as unsupported; 1 contradicted by a quote.",
  );
});

test("partial and a moved marker read as such; the check's line counts the moved markers", () => {
  const item = (claim: string, verdict: string, recited?: boolean) => ({
    claim,
    quote: `Quote for ${claim}`,
    support: 0.5,
    verdict,
    ...(recited ? { recited } : {}),
  });
  const env = {
    request_id: "r",
    status: "ok",
    writer: "llm",
    answer: "A holds [S1]. B holds [S1]. C holds [S2].",
    sources: [
      {
        id: "S1",
        title: "One",
        url: "https://example.org/1",
        type: "web",
        provider: "searxng",
        snippet: "",
        evidence: [item("A holds.", "supported"), item("B holds.", "partial")],
      },
      {
        id: "S2",
        title: "Two",
        url: "https://example.org/2",
        type: "web",
        provider: "searxng",
        snippet: "",
        evidence: [item("C holds.", "supported", true)],
      },
    ],
    usage: { latency_ms: 1, tokens_in: 0, tokens_out: 0 },
    errors: [],
    verification: { claims: 3, cited: 3, supported: 3, unsupported: 0, coverage: 1, contradicted: 0, recited: 1 },
  } as unknown as Envelope;
  const text = answerText(env);
  expect(text).toContain("backs: A holds. (supported, support 0.50)");
  expect(text).toContain("partly backs: B holds. (partial, support 0.50)");
  expect(text).toContain("backs: C holds. (supported, marker moved here by the check, support 0.50)");
  expect(text).toContain(
    "Checked: 3 of 3 claims backed by a quote from their source; 1 marker moved to a source that backs the claim.",
  );
});
