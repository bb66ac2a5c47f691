import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Source } from "../../src/contract/envelope.ts";
import {
  checkClaim,
  prepareEvidence,
  REMOVE_BELOW,
  SUPPORTED_AT,
} from "../../src/research/write/verify/check-claim.ts";
import { verifyAnswer } from "../../src/research/write/verify/verify-answer.ts";

// WiCE's dev split and its scorer (../shared/data/wice/ holds them with their notes): read in place, never copied.
const DATA = join(import.meta.dir, "../../../shared/data/wice");

interface Claim {
  id: string;
  claim: string;
  context: string;
  evidence: string[];
  label: "supported" | "partially_supported" | "not_supported";
  supporting: number[][];
}
interface Pred {
  id: string;
  quotes: number[];
  support: number;
}

/** The half a claim falls in, by a hash of its id: the knobs were set on "tune" and never looked at on "held-out". */
export function half(id: string): "tune" | "held-out" {
  let h = 0x811c9dc5;
  for (const c of id) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 2 === 0 ? "tune" : "held-out";
}

const f3 = (x: number) => x.toFixed(3);

async function wiceTable(rows: Claim[]): Promise<string> {
  const score: any = await import(join(DATA, "score.ts"));
  const preds = new Map<string, Pred>();
  for (const r of rows) {
    const c = checkClaim(r.claim, prepareEvidence(r.evidence, "en"), { context: r.context });
    preds.set(r.id, { id: r.id, quotes: c.quotes, support: c.support });
  }
  const out = [
    "| claims | n | set@1 | set@2 | set@5 | any@1 | any@2 | any@5 | AUROC S vs NS | AUROC S vs rest | F1 S vs rest (t) | supported claims below REMOVE_BELOW |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const [name, part] of [
    ["tune half (knobs set here)", rows.filter((r) => half(r.id) === "tune")],
    ["held-out half", rows.filter((r) => half(r.id) === "held-out")],
    ["all dev", rows],
  ] as const) {
    const ret = score.retrieval(part, preds).all;
    const cls = score.classification(part, preds, null, null);
    const s = part.filter((r) => r.label === "supported");
    const lost = s.filter((r) => preds.get(r.id)!.support < REMOVE_BELOW).length / s.length;
    out.push(
      `| ${name} | ${part.length} | ${f3(ret["set@1"])} | ${f3(ret["set@2"])} | ${f3(ret["set@5"])} | ${f3(ret["any@1"])} | ${f3(ret["any@2"])} | ${f3(ret["any@5"])} | ${f3(cls.supported_vs_not.auroc)} | ${f3(cls.supported_vs_rest.auroc)} | ${f3(cls.supported_vs_rest.f1)} (${cls.supported_vs_rest.threshold.toFixed(2)}) | ${(lost * 100).toFixed(1)} % |`,
    );
  }
  out.push(
    "| baseline (ii) lexical, dev (the data's notes) | 349 | .268 | .431 | .667 | .853 | .944 | .987 | .940 | .842 | .705 (.62) | — |",
    "| baseline (i) BM25, dev | 349 | .229 | .337 | .523 | .788 | .889 | .974 | .860 | .729 | .582 (.21) | — |",
    "| GPT-4 (0613), 100 test claims, oracle chunks (published) | 100 | — | — | — | — | — | — | 1.000 | .802 | .610 | — |",
    "| T5-3B trained on ANLI, same 100 (published) | 100 | — | — | — | — | — | — | 1.000 | .913 | .618 | — |",
  );
  return out.join("\n");
}

/**
 * The cost of verifying one run: five web-page-sized sources (WiCE articles) prepared, and a
 * 300-word answer's claims (their own WiCE claims) each checked against one or two of them,
 * with the quote cut. Timed many times; the first rounds warm the stemmers' caches.
 */
export function costTable(rows: Claim[]): string {
  const sources = rows.filter((r) => r.evidence.length >= 60 && r.evidence.length <= 200).slice(0, 5);
  const texts = sources.map((r) => r.evidence.join(" "));
  const claims: { claim: string; cites: number[] }[] = [];
  let words = 0;
  for (let i = 0; words < 300; i++) {
    const r = rows[i % rows.length]!;
    const own = sources.findIndex((s) => s.evidence === r.evidence);
    const cites = own >= 0 ? [own] : [i % 5, (i + 1) % 5];
    claims.push({ claim: r.claim, cites });
    words += r.claim.split(/\s+/).length;
  }
  // The answer as a model writes it: each claim with its markers before the full stop.
  const answer = claims
    .map((c) => `${c.claim.replace(/[.!?]$/, "")} ${c.cites.map((s) => `[S${s + 1}]`).join("")}.`)
    .join(" ");
  const cited: Source[] = texts.map((_, i) => ({
    id: `S${i + 1}`,
    title: sources[i]!.evidence[0]!,
    url: `https://example.org/${i}`,
    type: "web",
    provider: "searxng",
    snippet: "",
  }));
  const read = new Map(texts.map((t, i) => [`S${i + 1}`, t]));
  const times: number[] = [];
  for (let round = 0; round < 230; round++) {
    const t0 = performance.now();
    verifyAnswer(answer, cited, read, "en");
    if (round >= 30) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  const chars = texts.reduce((a, t) => a + t.length, 0);
  const cites = claims.reduce((a, c) => a + c.cites.length, 0);
  return [
    `Five sources of ${(chars / 1000).toFixed(0)} k characters in all (${sources.map((s) => s.evidence.length).join(", ")} sentences), an answer of ${words} words in ${claims.length} claims with ${cites} citations; ${times.length} rounds on this thread.`,
    "",
    "| verifying one run | p50 | p95 | max |",
    "|---|---|---|---|",
    `| verifyAnswer: the claims, 5 sources split and analysed, every citation checked, quotes cut, markers removed | ${q(0.5)} ms | ${q(0.95)} ms | ${times[times.length - 1]!.toFixed(1)} ms |`,
  ].join("\n");
}

/** WiCE's dev claims, read in place. */
export async function wiceRows(): Promise<Claim[]> {
  return new TextDecoder()
    .decode(Bun.gunzipSync(new Uint8Array(await Bun.file(join(DATA, "dev.jsonl.gz")).arrayBuffer())))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Claim);
}

/** Section 10: the claim check on WiCE (quality) and on one run's worth of text (cost). */
export async function benchClaims(): Promise<string> {
  const gold = join(DATA, "dev.jsonl.gz");
  if (!existsSync(gold)) return `Claims: skipped — ${gold} is missing (see ../shared/data/README.md).`;
  const rows = await wiceRows();
  return [
    `WiCE dev, claim level (SUPPORTED_AT ${SUPPORTED_AT}, REMOVE_BELOW ${REMOVE_BELOW}); no model:`,
    "",
    await wiceTable(rows),
    "",
    costTable(rows),
  ].join("\n");
}

if (import.meta.main) console.log(await benchClaims());
