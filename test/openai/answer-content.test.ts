import { describe, expect, test } from "bun:test";
import type { Envelope, Source } from "../../src/contract/envelope.ts";
import { answerContent, urlCitations } from "../../src/openai/answer-content.ts";

const web = (id: string, over: Partial<Source> = {}): Source => ({
  id,
  title: `Page ${id}`,
  url: `https://example.org/${id}`,
  type: "web",
  provider: "searxng",
  snippet: "",
  ...over,
});

const envelope = (answer: string, sources: Source[]): Envelope => ({
  request_id: "00000000-0000-4000-8000-000000000000",
  status: "ok",
  answer,
  sources,
  usage: { latency_ms: 1, tokens_in: 10, tokens_out: 5 },
  errors: [],
});

const spans = (env: Envelope) => {
  const content = answerContent(env);
  return urlCitations(env).map((a) => [
    content.slice(a.url_citation.start_index, a.url_citation.end_index),
    a.url_citation.url,
  ]);
};

describe("the answer as a chat message", () => {
  test("each marker group cites its claim; groups side by side share it; a marker after the full stop cites that sentence", () => {
    const env = envelope("First claim holds [S1]. Second one too [S1][S2].\n\n- A list item. [S2]", [
      web("S1"),
      web("S2"),
    ]);
    expect(spans(env)).toEqual([
      ["First claim holds [S1]", "https://example.org/S1"],
      ["Second one too [S1]", "https://example.org/S1"],
      ["Second one too [S1][S2]", "https://example.org/S2"],
      ["- A list item. [S2]", "https://example.org/S2"],
    ]);
  });

  test("sources as a numbered list: links escaped, local documents by collection, quotes under each, withheld as placeholders", () => {
    const env = envelope("A [S1] B [S2] C [S3].", [
      web("S1", {
        title: "Odd [title]",
        url: "https://example.org/a (b)",
        evidence: [
          { claim: "A", quote: "a quote\nacross lines", support: 0.9, verdict: "supported" },
          { claim: "A", quote: "says otherwise", support: 0.1, verdict: "contradicted" },
        ],
      }),
      web("S2", { type: "local", url: "local:notes/q3.md", title: "Q3", collection: "notes", doc_id: "q3.md" }),
      web("S3", { withheld: true, title: "Withheld document", url: "local:withheld" }),
    ]);
    expect(answerContent(env)).toBe(
      "A [S1] B [S2] C [S3].\n\n**Sources**\n\n" +
        "1. [Odd \\[title\\]](https://example.org/a%20%28b%29)\n   > “a quote across lines”\n" +
        "2. Q3 (notes · q3.md)\n" +
        "3. Withheld document",
    );
    // Only the source with a web address is an annotation.
    expect(urlCitations(env).map((a) => a.url_citation.url)).toEqual(["https://example.org/a (b)"]);
  });

  test("an answer without sources is the answer alone", () => {
    expect(answerContent(envelope("No source was on the question.", []))).toBe("No source was on the question.");
  });
});
