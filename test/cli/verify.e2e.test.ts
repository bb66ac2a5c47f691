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
