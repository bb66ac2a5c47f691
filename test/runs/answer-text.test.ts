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
    '> "Statins raised the risk."\n       says otherwise: Statins lowered the risk. (support 0.80)',
  );
  expect(text).toContain("backs: The trial enrolled 4,000 adults.");
  expect(text).toContain(
    "Checked: 1 of 2 claims backed by a quote from their source; 1 uncited as unsupported; 1 contradicted by a quote.",
  );
});
