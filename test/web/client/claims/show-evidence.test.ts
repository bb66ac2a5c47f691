import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseHTML } from "linkedom";
import { answerClaims, plainText } from "../../../../src/research/write/verify/answer-claims.ts";
import type { Verification } from "../../../../src/web/client/claims/claim-match.ts";
import type { CheckedSource } from "../../../../src/web/client/claims/show-evidence.ts";

// The renderer builds real DOM nodes: a document from linkedom stands in for the browser's,
// for this file only (test files share one process).
let renderMarkdown: typeof import("../../../../src/web/client/markdown.ts").renderMarkdown;
let showEvidence: typeof import("../../../../src/web/client/claims/show-evidence.ts").showEvidence;
let note: typeof import("../../../../src/web/client/claims/verification-note.ts");
beforeAll(async () => {
  const { document } = parseHTML('<html><body><main id="main"></main></body></html>');
  Object.assign(globalThis, { document });
  ({ renderMarkdown } = await import("../../../../src/web/client/markdown.ts"));
  ({ showEvidence } = await import("../../../../src/web/client/claims/show-evidence.ts"));
  note = await import("../../../../src/web/client/claims/verification-note.ts");
});
afterAll(() => {
  Reflect.deleteProperty(globalThis, "document");
});

const source = (id: string, evidence: CheckedSource["evidence"]): CheckedSource => ({
  id,
  title: `Title ${id}`,
  url: `https://example.org/${id}`,
  type: "web",
  provider: "searxng",
  snippet: "…",
  evidence,
});

const ANSWER = [
  "Here is what the sources say:",
  "",
  "Dendrites grow through the **ceramic** electrolyte at high current [S1]. Cells shorted after 400 cycles [S1]. Stack pressure slowed the growth.",
  "",
  "- The interface has a high resistance. [S2]",
].join("\n");

const SOURCES = [
  source("S1", [
    { claim: "Dendrites grow through the ceramic electrolyte at high current.", quote: "Dendrites grow", support: 0.9 },
    { claim: "Cells shorted after 400 cycles.", quote: "Our cells shorted after 40 cycles.", support: 0.3 },
  ]),
  source("S2", [{ claim: "The interface has a high resistance.", quote: "high resistance", support: 0.8 }]),
];

const VERIFIED: Verification = { claims: 4, cited: 3, supported: 2, unsupported: 1, coverage: 0.5 };

function rendered(): HTMLElement {
  const answer = document.createElement("div");
  answer.append(renderMarkdown(ANSWER));
  document.getElementById("main")!.replaceChildren(answer);
  return answer;
}

const marked = (answer: HTMLElement) =>
  [...answer.querySelectorAll("span.claim.unbacked")].map((s) => s.getAttribute("data-claim"));

/** Which sentences of an answer the page marks as backed by no source. */
describe("evidence on a rendered answer", () => {
  test("every sentence of a paragraph or list item is a span carrying its Markdown", () => {
    const claims = [...rendered().querySelectorAll("span.claim")].map((s) => s.getAttribute("data-claim"));
    expect(claims).toEqual([
      "Here is what the sources say:",
      "Dendrites grow through the **ceramic** electrolyte at high current [S1].",
      "Cells shorted after 400 cycles [S1].",
      "Stack pressure slowed the growth.",
      "The interface has a high resistance. [S2]",
    ]);
  });

  test("a sentence or list item wrapped over lines is one span, the claim the check made of it", () => {
    const md =
      "Cells shorted after 40 cycles once\nfilaments crossed [S1].\n\n- Stack pressure above 5 MPa\n  slowed the growth [S2].\n- Voids form [S2].";
    const answer = document.createElement("div");
    answer.append(renderMarkdown(md));
    const spans = [...answer.querySelectorAll("span.claim")].map((s) => s.getAttribute("data-claim"));
    expect(spans).toEqual([
      "Cells shorted after 40 cycles once filaments crossed [S1].",
      "Stack pressure above 5 MPa slowed the growth [S2].",
      "Voids form [S2].",
    ]);
    expect(answer.querySelectorAll("li").length).toBe(2);
    expect(spans.map((x) => plainText(x!))).toEqual(answerClaims(md).map((c) => c.text));
  });

  test("a verified answer: the weakly cited and the uncited claims are marked, the lead-in and backed ones not", () => {
    const answer = rendered();
    expect(showEvidence(answer, SOURCES, VERIFIED)).toBe(2);
    expect(marked(answer)).toEqual(["Cells shorted after 400 cycles [S1].", "Stack pressure slowed the growth."]);
    expect(answer.querySelector("span.unbacked")!.getAttribute("title")).toBe("No source backs this sentence");
  });

  test("a run from before the check marks nothing", () => {
    const answer = rendered();
    expect(showEvidence(answer, SOURCES, null)).toBe(0);
    expect(marked(answer)).toEqual([]);
  });

  test("a check that counted no claim (an extractive answer quoting nothing) marks nothing", () => {
    const answer = document.createElement("div");
    answer.append(
      renderMarkdown("The sources found hold nothing on this question: none shares enough of its words to be quoted."),
    );
    const none = { claims: 0, cited: 0, supported: 0, unsupported: 0, coverage: 0 };
    expect(showEvidence(answer, [], none)).toBe(0);
    expect(marked(answer)).toEqual([]);
  });

  test("a withheld source's quotes count for nothing", () => {
    const answer = rendered();
    const hidden = SOURCES.map((s) => (s.id === "S2" ? { ...s, withheld: true as const } : s));
    showEvidence(answer, hidden, VERIFIED);
    expect(marked(answer)).toContain("The interface has a high resistance. [S2]");
  });
});

/** The count under the answer, and the quotes under each source. */
describe("the verification's words", () => {
  test("the count, the removed citations, and the legend only when a sentence is marked", () => {
    const text = note.verificationNote(VERIFIED, 2).textContent;
    expect(text).toContain("2 of 4 claims backed by a quote");
    expect(text).toContain("1 citation removed");
    expect(text).toContain("dotted underline: no source backs this sentence");
    const all = note.verificationNote({ claims: 3, cited: 3, supported: 3, unsupported: 0, coverage: 1 }, 0);
    expect(all.textContent).toContain("3 of 3 claims backed by a quote");
    expect(all.textContent).not.toContain("removed");
    expect(all.textContent).not.toContain("dotted underline");
  });

  test("an extractive answer: where its quotes come from, never claims backed; none quoted says so", () => {
    const quoting = note.verificationNote({ claims: 8, cited: 8, supported: 8, unsupported: 0, coverage: 1 }, 0, 3);
    expect(quoting.textContent).toContain("Quoted verbatim from 3 sources; no model wrote this answer");
    expect(quoting.textContent).not.toContain("backed");
    expect(
      note.verificationNote({ claims: 1, cited: 1, supported: 1, unsupported: 0, coverage: 1 }, 0, 1).textContent,
    ).toContain("Quoted verbatim from 1 source;");
    const none = note.verificationNote({ claims: 0, cited: 0, supported: 0, unsupported: 0, coverage: 0 }, 0, 0);
    expect(none.textContent).toBe("Nothing quoted: no source found is on the question");
  });

  test("a source's quotes as text, each with its claim, score and link; none without evidence", () => {
    const quote = '<img src=x onerror="alert(1)"> Dendrites grow';
    const list = note.sourceQuotes(
      [{ claim: "Dendrites grow.", quote, support: 0.875 }],
      (q) => `https://example.org/#${encodeURIComponent(q)}`,
      true,
    )!;
    expect(list.querySelector("summary")!.textContent).toBe("1 quote");
    expect(list.querySelector("blockquote")!.textContent).toBe(quote);
    expect(list.querySelector("img")).toBeNull();
    expect(list.textContent).toContain("backs “Dendrites grow.” · support 0.88");
    expect(list.querySelector("a")!.getAttribute("rel")).toBe("noopener noreferrer");
    expect(note.sourceQuotes([], () => null, true)).toBeNull();
    expect(note.sourceQuotes(undefined, () => null, true)).toBeNull();
  });
});
