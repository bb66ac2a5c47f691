import { describe, expect, test } from "bun:test";
import type { Source } from "../../../src/research/types.ts";
import { sourcesText } from "../../../src/runs/answer-text.ts";
import { storedStream } from "../../../src/runs/instances/replay.ts";
import { withheldSource, withhold } from "../../../src/runs/withhold/withhold.ts";
import { WITHHELD_LINE, withholdAnswerEntry, withholdBlocks } from "../../../src/runs/withhold/withhold-answer.ts";
import type { RunRow, TimelineEvent } from "../../../src/store/types.ts";

/** What an earlier run shows of a collection its reader can no longer read (src/runs/withhold/withhold.ts), without a server. */

const EXTRACTIVE =
  "Here is what the sources say:\n\nShared fact one. [S1] Shared fact two. [S1]\n\nPrivate fact. [S2] Another. [S2]";

describe("the answer's blocks", () => {
  test("a paragraph citing a withheld source becomes the placeholder with its markers; the others stay", () => {
    expect(withholdBlocks(EXTRACTIVE, new Set(["S2"])).text).toBe(
      `Here is what the sources say:\n\nShared fact one. [S1] Shared fact two. [S1]\n\n${WITHHELD_LINE} [S2]`,
    );
    expect(withholdBlocks(EXTRACTIVE, new Set()).text).toBe(EXTRACTIVE);
  });

  test("a model's list keeps its bullets; an item goes with its sub-items, and both kinds of markers", () => {
    const md =
      "Dendrites limit them [S1][S3].\n\n- Interfaces [S2]\n  1. Voids of 4 µm\n- Cost [S1]\n  - Sulfides [S2]";
    expect(withholdBlocks(md, new Set(["S2"])).text).toBe(
      `Dendrites limit them [S1][S3].\n\n- ${WITHHELD_LINE} [S2]\n- Cost [S1]\n  - ${WITHHELD_LINE} [S2]`,
    );
  });

  test("a sentence or item soft-wrapped over lines goes whole, its first lines too; a paragraph goes whole", () => {
    const md = [
      "Alice earns 183,000 EUR and Bob",
      "earns 150,000 EUR [S2]. That is 22% more.",
      "",
      "- Alice's bonus is 40,000 EUR, paid",
      "  in March [S2].",
      "- Pay rose in 2024 [S1].",
    ].join("\n");
    const { text } = withholdBlocks(md, new Set(["S2"]));
    expect(text).toBe(`${WITHHELD_LINE} [S2]\n\n- ${WITHHELD_LINE} [S2]\n- Pay rose in 2024 [S1].`);
    expect(text).not.toMatch(/183|22%|40,000/);
  });

  test("a table row stays a row of as many cells; the header and the other rows stay", () => {
    const md =
      "| Who | Pay | Year |\n| --- | --- | --- |\n| Alice | 183,000 EUR [S2] | 2024 |\n| Mean | 90,000 EUR [S1] | 2024 |";
    expect(withholdBlocks(md, new Set(["S2"])).text).toBe(
      `| Who | Pay | Year |\n| --- | --- | --- |\n| ${WITHHELD_LINE} [S2] | | |\n| Mean | 90,000 EUR [S1] | 2024 |`,
    );
  });

  test("the stream's deltas are re-cut to the new text: same ids in order, none empty, nothing lost", () => {
    const deltas: string[] = [
      "Here is what the sources say:",
      "\n\nShared fact one. [S1] Sha",
      "red fact two. [S1]",
      "\n\nPrivate",
      " fact. [S2] Another. [S2]",
    ];
    const parts = deltas.map((_, i): [number, number] => [10 + i, deltas.slice(0, i + 1).join("").length]);
    const text = deltas.join("");
    const data = withholdAnswerEntry({ seq: 10, text, chars: text.length, parts }, new Set(["S2"]));
    const run = row({ answer: null });
    const replayed = storedStream(run, [{ atMs: 1, type: "answer", data }], "extractive")
      .filter((s) => s.event.event === "answer")
      .map((s) => [s.seq, (s.event.data as { delta: string }).delta]);
    expect(replayed).toEqual([
      [10, deltas[0]!],
      [11, deltas[1]!],
      [12, deltas[2]!],
      [13, `\n\n${WITHHELD_LINE} [S2]`],
    ]);
    expect(data.chars).toBe((data.text as string).length);
  });
});

const local = (id: string, collectionId?: number): Source => ({
  id,
  title: `Secret ${id}`,
  url: `local:secret/${id}.md`,
  type: "local",
  provider: "local",
  snippet: "secret words",
  collection: "secret",
  doc_id: `${id}.md`,
  owner: "alice@team.example",
  ...(collectionId === undefined ? {} : { collection_id: collectionId }),
});
const web: Source = {
  id: "S1",
  title: "Web",
  url: "https://w.example/a",
  type: "web",
  provider: "searxng",
  snippet: "w",
};

function row(o: Partial<RunRow>): RunRow {
  return {
    id: "0b7e4c1e-8a53-4a5e-9d0f-2f1d3c4b5a69",
    accountId: "b",
    keyPrefix: null,
    origin: "api",
    endpoint: "/api/query",
    query: "q",
    status: "ok",
    writer: "extractive",
    answer: "Web [S1]\n\nKept [S2]\n\nGone [S3]\n\nOld [S4]",
    sources: [web, local("S2", 7), local("S3", 9), local("S4")],
    errors: [],
    verification: null,
    tokensIn: 0,
    tokensOut: 0,
    latencyMs: 5,
    createdAt: "2026-11-25T10:00:00.000Z",
    finishedAt: "2026-11-25T10:00:01.000Z",
    ...o,
  };
}

const readEvent = (doc: string, collectionId?: number): TimelineEvent => ({
  atMs: 3,
  type: "progress",
  data: {
    stage: "reading",
    message: "secret: read from collection",
    url: `local:secret/${doc}.md`,
    collection: "secret",
    doc_id: `${doc}.md`,
    ...(collectionId === undefined ? {} : { collection_id: collectionId }),
    used: "page",
    ms: 1,
    seq: 4,
  },
});

describe("a stored run read by an account that may read collection 7 only", () => {
  const events: TimelineEvent[] = [
    {
      atMs: 2,
      type: "progress",
      data: {
        stage: "reading",
        message: "Reading 4 sources",
        urls: ["https://w.example/a", "local:secret/S2.md", "local:secret/S3.md", "local:secret/S4.md"],
        seq: 3,
      },
    },
    readEvent("S2", 7),
    readEvent("S3", 9),
    readEvent("S4"),
    ...[web, local("S2", 7), local("S3", 9), local("S4")].map((source, i) => ({
      atMs: 5,
      type: "source",
      data: { source, seq: 8 + i },
    })),
  ];
  const seen = withhold({ run: row({}), events }, new Set([7]));
  const text = JSON.stringify(seen);

  test("the readable collection's items stay, without the collection's id", () => {
    expect(seen.run.sources.slice(0, 2)).toEqual([web, (({ collection_id: _, ...s }) => s)(local("S2", 7))]);
    expect(text).not.toContain("collection_id");
  });

  test("another collection's, and those recorded with no id, are withheld everywhere", () => {
    expect(seen.run.sources.slice(2)).toEqual([withheldSource("S3"), withheldSource("S4")]);
    expect(seen.run.answer).toBe(`Web [S1]\n\nKept [S2]\n\n${WITHHELD_LINE} [S3]\n\n${WITHHELD_LINE} [S4]`);
    expect(seen.events[0]!.data.urls).toEqual(["https://w.example/a", "local:secret/S2.md"]);
    expect(seen.events[2]!.data).toEqual({
      stage: "reading",
      message: "A document this account can no longer read (withheld)",
      used: "page",
      ms: 1,
      withheld: true,
      seq: 4,
    });
    expect(text.match(/S3\.md|S4\.md|Secret S3|Secret S4/g)).toBeNull();
  });

  test('as text under an answer (ask, MCP), a withheld source says why, not "undefined"', () => {
    expect(sourcesText([withheldSource("S3")])).toBe(
      "[S3] Withheld document\n     Its collection was removed or is no longer shared with this account.",
    );
  });
});

describe("claims you can check, on a run that cited a document now withheld", () => {
  // Alice's line cited her private document and a web page: its words are hers, and must not
  // come back as the web page's evidence (README "Claims you can check").
  const ev = (claim: string, quote: string) => ({ claim, quote, support: 0.9 });
  const secret = {
    ...local("S2", 9),
    evidence: [ev("The merger closes in March.", "Project Falcon closes in March.")],
  };
  const page = {
    ...web,
    evidence: [
      ev("Public fact.", "A public fact."),
      ev("The merger closes in March.", "Mergers often close in spring."),
    ],
  };
  const seen = withhold(
    {
      run: row({ answer: "Public fact [S1].\n\nThe merger closes in March [S1][S2].", sources: [page, secret] }),
      events: [],
    },
    new Set([7]),
  );

  test("the withheld source has no quotes, and the other source keeps only the claims still shown", () => {
    expect(seen.run.sources[1]).toEqual(withheldSource("S2"));
    expect(seen.run.sources[0]!.evidence).toEqual([ev("Public fact.", "A public fact.")]);
    expect(JSON.stringify(seen)).not.toMatch(/merger|Falcon/i);
  });
});

describe("the claim check's counts, on a run that cited a document now withheld", () => {
  const ev = (claim: string, support: number) => ({ claim, quote: "q", support });
  const written = "Public fact [S1].\n\nA claim the check uncited [S1].\n\nFalcon closes in March [S2].";
  const answer = "Public fact [S1].\n\nA claim the check uncited.\n\nFalcon closes in March [S2].";
  const was = { claims: 3, cited: 3, supported: 2, unsupported: 1, coverage: 0.67 };
  const sources = [
    { ...web, evidence: [ev("Public fact.", 0.9)] },
    { ...local("S2", 9), evidence: [ev("Falcon closes in March.", 0.8)] },
  ];
  const verifying = (v: object): TimelineEvent => ({
    atMs: 9,
    type: "progress",
    data: { stage: "verifying", message: "Checked 3 claims", ...v, ms: 1, seq: 12 },
  });
  const seen = withhold(
    {
      run: row({ answer, sources, verification: was }),
      events: [
        { atMs: 5, type: "source", data: { source: local("S2", 9), seq: 8 } },
        {
          atMs: 6,
          type: "answer",
          data: { seq: 9, text: written, chars: written.length, parts: [[9, written.length]] },
        },
        verifying(was),
      ],
    },
    new Set([7]),
  );
  const now = { claims: 2, cited: 2, supported: 1, unsupported: 1, coverage: 0.5 };

  test("are those of the claims left: the withheld claim counts nowhere; one uncited by the check stays unsupported", () => {
    expect(seen.run.verification).toEqual(now);
    expect(seen.events.at(-1)!.data).toEqual({
      stage: "verifying",
      // The stored run is extractive: its claims are quotes (docs/decisions/0141-an-extractive-answer-says-it-quotes.md).
      message: "Checked 2 quotes against the sources they were taken from: 1 found there, 1 uncited",
      ...now,
      ms: 1,
      seq: 12,
    });
  });

  test("nothing withheld: the counts stay as the run made them", () => {
    const kept = withhold(
      { run: row({ answer, sources, verification: was }), events: [verifying(was)] },
      new Set([7, 9]),
    );
    expect([kept.run.verification, kept.events[0]!.data]).toEqual([was, verifying(was).data]);
  });
});

describe("the verdicts' counts, on a run that cited a document now withheld", () => {
  const ev = (claim: string, support: number, verdict: string, recited?: true) => ({
    claim,
    quote: "q",
    support,
    verdict: verdict as "supported",
    ...(recited ? { recited } : {}),
  });
  const written =
    "Public fact [S1].\n\nStatins lower the risk [S1].\n\nMoved claim [S2].\n\nFalcon closes in March [S2].\n\nFalcon closes in May.";
  const answer =
    "Public fact [S1].\n\nStatins lower the risk.\n\nMoved claim [S1].\n\nFalcon closes in March [S2].\n\nFalcon closes in May.";
  const was = { claims: 5, cited: 4, supported: 3, unsupported: 1, coverage: 0.6, contradicted: 2, recited: 1 };
  const sources = [
    {
      ...web,
      evidence: [
        ev("Public fact.", 0.9, "supported"),
        ev("Statins lower the risk.", 0.6, "contradicted"),
        ev("Moved claim.", 0.8, "supported", true),
      ],
    },
    {
      ...local("S2", 9),
      evidence: [ev("Falcon closes in March.", 0.8, "supported"), ev("Falcon closes in May.", 0.7, "contradicted")],
    },
  ];
  const seen = withhold(
    {
      run: row({ answer, sources, verification: was, writer: "llm" }),
      events: [
        {
          atMs: 6,
          type: "answer",
          data: { seq: 9, text: written, chars: written.length, parts: [[9, written.length]] },
        },
      ],
    },
    new Set([7]),
  );

  test("contradicted and recited are those of the claims left; a contradicted quote backs nothing; none of the withheld document's verdicts counts", () => {
    expect(seen.run.verification).toEqual({
      claims: 4,
      cited: 3,
      supported: 2,
      unsupported: 1,
      coverage: 0.5,
      contradicted: 1,
      recited: 1,
    });
  });
});
