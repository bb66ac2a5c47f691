import { expect, test } from "bun:test";
import { checkClaim, prepareEvidence } from "../../src/research/write/verify/check-claim.ts";
import { backing, judge } from "../../src/research/write/verify/learned-check.ts";
import { cli } from "./run-cli.ts";

const EVIDENCE = [
  "Solid-state batteries promise more energy in less space.",
  "After 1,000 cycles, the solid-state cell retained 80 percent of its original capacity.",
  "Manufacturing at scale remains the main obstacle.",
];
const lines = [
  { id: "kept", claim: "The solid-state cell kept 80 percent of its capacity after 1000 cycles.", evidence: EVIDENCE },
  { id: 7, claim: "The solid-state cell kept 60 percent of its capacity after 1000 cycles.", evidence: EVIDENCE },
  { id: "flip", claim: "Manufacturing at scale no longer remains the main obstacle.", evidence: EVIDENCE },
  {
    id: "de",
    language: "de",
    claim: "Strengere Klimaziele wurden 2021 von der Bundesregierung beschlossen.",
    evidence: ["Der Bericht erschien im März.", "Die Bundesregierung hat 2021 strengere Klimaziele beschlossen."],
  },
];

test("verify - answers each JSONL line with its quotes, support and verdict, as the runs' check gives them", async () => {
  const input = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
  const r = await cli(["verify", "-"], {}, input);
  expect(r.code).toBe(0);
  const out = r.out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(out.map((o) => o.id)).toEqual(["kept", 7, "flip", "de"]);
  expect(out.map((o) => o.verdict)).toEqual(["supported", "contradicted", "contradicted", "supported"]);
  for (const [i, o] of out.entries()) {
    expect(Object.keys(o).sort()).toEqual(["id", "quotes", "support", "verdict"]);
    const l = lines[i]!;
    const ev = prepareEvidence(l.evidence, l.language ?? "en");
    const c = checkClaim(l.claim, ev);
    expect(o.quotes).toEqual(c.quotes);
    // The runs' support: the learned probability, not the lexical score.
    expect(o.support).toBeCloseTo(backing(judge(l.claim, ev, c)), 3);
  }
  expect(out[0].quotes[0]).toBe(1);
  expect(out[0].support).toBeGreaterThan(out[1].support);
  expect(out[3].quotes[0]).toBe(1);
});

test("verify - names a bad line on stderr, checks the rest and exits 1", async () => {
  const input = [
    JSON.stringify(lines[0]),
    "not json",
    JSON.stringify({ id: 3, claim: "x", evidence: "no" }),
    JSON.stringify(lines[1]),
  ].join("\n");
  const r = await cli(["verify", "-"], {}, input);
  expect(r.code).toBe(1);
  expect(
    r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).id),
  ).toEqual(["kept", 7]);
  expect(r.err).toContain("line 2: not JSON");
  expect(r.err).toContain("line 3: evidence is not an array of strings");
});

test("verify takes only - (standard input)", async () => {
  const r = await cli(["verify", "claims.jsonl"], {});
  expect(r.code).toBe(2);
});

const SWAP = {
  id: "swap",
  claim: "Removing five to ten large derelict objects each year would stabilise low Earth orbit.",
  sources: [
    {
      id: "kessler",
      evidence: [
        "The Kessler syndrome is a cascade in which collisions between objects in low Earth orbit create debris.",
        "Above a critical density of objects, the number of fragments grows even if no new satellites are launched.",
      ],
    },
    {
      id: "removal",
      evidence: [
        "Studies of the debris environment model the population of fragments over two centuries.",
        "Removing five to ten large derelict objects each year would stabilise low Earth orbit, according to the models.",
      ],
    },
    { id: "reefs", evidence: ["Reefs need about a decade to recover from a severe bleaching event."] },
  ],
};

test("verify - with sources: [...] checks the claim against each and names the source that backs it best; a line with both evidence and sources, or neither, is refused alone", async () => {
  const input = [
    JSON.stringify(SWAP),
    JSON.stringify({ ...SWAP, id: "both", evidence: EVIDENCE }),
    JSON.stringify({ id: "neither", claim: SWAP.claim }),
    JSON.stringify({ ...SWAP, id: "nobody", sources: [SWAP.sources[2]] }),
    JSON.stringify(lines[0]),
  ].join("\n");
  const r = await cli(["verify", "-"], {}, input);
  expect(r.code).toBe(1);
  const out = r.out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(out.map((o) => o.id)).toEqual(["swap", "nobody", "kept"]);
  expect(Object.keys(out[0]).sort()).toEqual(["best", "id", "sources"]);
  expect(out[0].best).toBe("removal");
  expect(out[0].sources.map((s: any) => [s.id, s.verdict])).toEqual([
    ["kessler", expect.stringMatching(/^(partial|unsupported)$/)],
    ["removal", "supported"],
    ["reefs", "unsupported"],
  ]);
  expect(out[0].sources[1].quotes[0]).toBe(1);
  for (const s of out[0].sources) expect(Object.keys(s).sort()).toEqual(["id", "quotes", "support", "verdict"]);
  expect(out[1]).toEqual({ id: "nobody", sources: [expect.objectContaining({ id: "reefs" })], best: null });
  expect(out[2].verdict).toBe("supported");
  expect(r.err).toContain("line 2: give either evidence or sources, not both or neither");
  expect(r.err).toContain("line 3: give either evidence or sources, not both or neither");
});

test("verify --help describes the sources lines and their answer", async () => {
  const r = await cli(["verify", "--help"]);
  expect(r.code).toBe(0);
  expect(r.out).toContain(`"sources": [{"id", "evidence": [sentences]}]`);
  expect(r.out).toContain(`"best"`);
});
