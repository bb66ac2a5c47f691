import type { Source } from "../../../src/research/types.ts";
import { THRESHOLDS } from "../../../src/research/write/verify/learned-check.ts";
import { verifyAnswer } from "../../../src/research/write/verify/verify-answer.ts";
import { costTable, wiceRows } from "../claims.ts";
import { FILES, haveData } from "./data.ts";
import { gz, reciteRuns, wiceNeighbours } from "./recite-pairs.ts";
import { crossValidatedRecite, MOVED_AWAY_AT_MOST, type ReciteFigures, reciteFigures } from "./recite-thresholds.ts";
import { train } from "./train.ts";

/**
 * Section 16 of `bun run bench`: re-citing a marker (docs/decisions/0159-a-marker-moved-never-added.md).
 * The thresholds chosen again and cross-validated on the tuning runs, then the same runs through
 * `verifyAnswer` itself with the shipped weights (in-sample: those weights saw these claims),
 * then the cost of a run's check with every claim against every source.
 */

type Fate = "kept" | "removed" | { to: number };

/** One claim citing source `cited` among `texts`, as an answer through verifyAnswer: what became of its marker. */
function throughVerify(claim: string, texts: string[], cited: number): Fate {
  const sources: Source[] = texts.map((_, i) => ({
    id: `S${i + 1}`,
    title: `source ${i}`,
    url: `https://example.org/${i}`,
    type: "web",
    provider: "searxng",
    snippet: "",
  }));
  const answer = `${claim.trim().replace(/[.!?]+$/, "")} [S${cited + 1}].`;
  const out = verifyAnswer(answer, sources, new Map(texts.map((t, i) => [`S${i + 1}`, t])), "en");
  const marker = out.answer.match(/\[(S\d+)\]/)?.[1];
  if (!marker) return "removed";
  const at = Number(
    out.sources
      .find((s) => s.id === marker)!
      .url.split("/")
      .pop(),
  );
  return at === cited ? "kept" : { to: at };
}

const pct = (n: number, of: number) => `${((100 * n) / (of || 1)).toFixed(1)} %`;
const p = (v: number) => `${(100 * v).toFixed(1)} %`;

function swapsThrough(): string {
  const w = { removed: 0, toRight: 0, elsewhere: 0, kept: 0 };
  const r = { kept: 0, removed: 0, away: 0 };
  for (const c of gz<{ claim: string; gold_doc: number; candidates: { doc_id: number; sentences: string[] }[] }>(
    FILES.swap,
  )) {
    const texts = c.candidates.map((d) => d.sentences.join(" "));
    const right = c.candidates.findIndex((d) => d.doc_id === c.gold_doc);
    texts.forEach((_, i) => {
      const f = throughVerify(c.claim, texts, i);
      if (i === right) r[f === "kept" ? "kept" : f === "removed" ? "removed" : "away"]++;
      else w[f === "kept" || f === "removed" ? f : f.to === right ? "toRight" : "elsewhere"]++;
    });
  }
  const wn = w.removed + w.toRight + w.elsewhere + w.kept;
  const rn = r.kept + r.removed + r.away;
  return `| SciFact train swaps, through verifyAnswer (in-sample) | ${pct(w.removed, wn)} | ${pct(w.toRight, wn)} | ${pct(w.elsewhere, wn)} | ${pct(w.kept, wn)} | ${pct(r.kept, rn)} | ${pct(r.removed, rn)} | ${pct(r.away, rn)} | ${wn} / ${rn} |`;
}

function wiceThrough(): string {
  const rows = gz<{ claim: string; evidence: string[]; label: string }>(FILES.wice);
  const near = wiceNeighbours(rows.map((r) => r.claim));
  const n = { kept: 0, removed: 0, away: 0, awaySupported: 0, supported: 0 };
  rows.forEach((r, i) => {
    const texts = [i, ...near[i]!].map((j) => rows[j]!.evidence.join(" "));
    const f = throughVerify(r.claim, texts, 0);
    n[f === "kept" ? "kept" : f === "removed" ? "removed" : "away"]++;
    if (r.label === "supported") {
      n.supported++;
      if (typeof f === "object") n.awaySupported++;
    }
  });
  return `WiCE dev through verifyAnswer (each claim citing its own evidence, the evidence of the 4 dev claims sharing most of its words as the run's other sources; ${rows.length} claims): kept ${pct(n.kept, rows.length)}, removed ${pct(n.removed, rows.length)}, moved away ${pct(n.away, rows.length)} (of the supported claims ${pct(n.awaySupported, n.supported)}).`;
}

const cvRow = (label: string, f: ReciteFigures) =>
  `| ${label} | ${p(f.wrong.removed)} | ${p(f.wrong.toRight)} | ${p(f.wrong.elsewhere)} | ${p(f.wrong.kept)} | ${p(f.right.kept)} | ${p(f.right.removed)} | ${p(f.right.away)} | ${f.wrong.n} / ${f.right.n} |`;

export async function benchRecite(): Promise<string> {
  if (!haveData()) return "Re-citing: skipped — the tuning data is absent (see ../shared/data/README.md).";
  const t = train();
  const runs = reciteRuns(t.rows, t.selections, t.thresholds);
  const cv = crossValidatedRecite(runs);
  return [
    `Shipped: reciteAt ${THRESHOLDS.reciteAt}, reciteMargin ${THRESHOLDS.reciteMargin} (trained again: ${t.thresholds.reciteAt}, ${t.thresholds.reciteMargin}); chosen where at most ${p(MOVED_AWAY_AT_MOST)} of honest markers move away. Per fold (chosen on the other four): ${cv.chosen.map((c) => `${c.reciteAt}/${c.reciteMargin}`).join(", ")}.`,
    "",
    "| markers | wrong: removed | wrong: moved to the right source | wrong: moved to another wrong one | wrong: kept | right: kept | right: removed | right: moved away | citations wrong / right |",
    "|---|---|---|---|---|---|---|---|---|",
    // Thresholds above any probability: the verdicts alone, as before re-citing.
    cvRow(
      "SciFact train swaps, no re-citing (verdicts only, out of fold)",
      reciteFigures(runs, { reciteAt: 2, reciteMargin: 2 }),
    ),
    cvRow("SciFact train swaps, re-citing, cross-validated", cv.figures),
    swapsThrough(),
    "",
    `WiCE dev, cross-validated: honest citations removed ${p(cv.figures.wice.removed)}, moved away ${p(cv.figures.wice.away)} (${cv.figures.wice.n} claims).`,
    wiceThrough(),
    "",
    costTable(await wiceRows()),
  ].join("\n");
}

if (import.meta.main) console.log(await benchRecite());
