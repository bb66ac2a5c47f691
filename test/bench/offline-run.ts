import { importPaths } from "../../src/corpus/import/import-paths.ts";
import { sharedCollection } from "../corpus/collections-helpers.ts";
import { query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { startCollectionsServer } from "../runs/collections-server.ts";

const DATA = new URL("../../../shared/data/scifact/", import.meta.url).pathname;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/**
 * A fully offline run (README "Air-gapped: research your own documents"): the SciFact
 * abstracts (5,183) in one collection, the configured SearXNG unreachable (a closed port), no
 * academic database, no model (extractive writer). `runs` training claims asked in turn
 * through POST /api/query of a started server; latency as the client sees it. Target: well
 * under a second.
 */
export async function benchOfflineRun(runs = 100): Promise<string> {
  const claims = (await Bun.file(`${DATA}queries-train.jsonl`).text())
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text)
    .slice(0, runs);

  const t = await startCollectionsServer({ LOG_LEVEL: "silent", PLAN_RUNS_FREE: "1000" });
  try {
    const t0 = performance.now();
    const imported = await importPaths(t.store, [`${DATA}corpus.jsonl.gz`], {
      collection: await sharedCollection(t.store, "scifact"),
    });
    const importMs = performance.now() - t0;

    // One warm-up run: the first run pays for lazy imports and statement preparation.
    await (await query(t.srv.url, t.key, { query: claims[0]! })).json();
    const walls: number[] = [];
    let ok = 0,
      allLocal = 0,
      cited = 0;
    for (const claim of claims) {
      const s = performance.now();
      const env = (await (await query(t.srv.url, t.key, { query: claim })).json()) as {
        status: string;
        sources: { type: string }[];
      };
      walls.push(performance.now() - s);
      if (env.status !== "ok") continue;
      ok++;
      cited += env.sources.length;
      if (env.sources.every((x) => x.type === "local")) allLocal++;
    }
    walls.sort((a, b) => a - b);
    // The claim check's share of each run (README "Claims you can check"): the engine's own clock
    // on the stream's last writing event and on the verifying one.
    const verify: number[] = [];
    const whole: number[] = [];
    for (const claim of claims.slice(0, 40)) {
      const st = await readSse(await query(t.srv.url, t.key, { query: claim }, {}, "/api/query/stream"));
      const ms = (stage: string) =>
        st.events.findLast((e) => e.event === "progress" && e.data.stage === stage)?.data.ms;
      const [w, v] = [ms("writing"), ms("verifying")];
      if (typeof w === "number" && typeof v === "number") {
        verify.push(v - w);
        whole.push(v);
      }
    }
    verify.sort((a, b) => a - b);
    whole.sort((a, b) => a - b);
    const without = whole.map((x, i) => x - verify[i]!).sort((a, b) => a - b);
    return [
      `Fully offline runs over SciFact (${imported.added} abstracts, imported in ${(importMs / 1000).toFixed(1)} s), ${claims.length} training claims through POST /api/query, SearXNG unreachable, no academic database, extractive writer:`,
      "",
      "| runs | ok | all sources local | sources cited (mean) | p50 | p95 | max |",
      "|---|---|---|---|---|---|---|",
      `| ${claims.length} | ${ok} | ${allLocal} | ${(cited / Math.max(1, ok)).toFixed(1)} | ${pct(walls, 50).toFixed(0)} ms | ${pct(walls, 95).toFixed(0)} ms | ${walls.at(-1)!.toFixed(0)} ms |`,
      "",
      `The claim check within ${verify.length} of those runs (streamed; the engine's clock from accepting the run to its verifying event):`,
      "",
      "| | p50 | p95 | max |",
      "|---|---|---|---|",
      `| engine, with the check | ${pct(whole, 50)} ms | ${pct(whole, 95)} ms | ${whole.at(-1)} ms |`,
      `| engine, without it | ${pct(without, 50)} ms | ${pct(without, 95)} ms | ${without.at(-1)} ms |`,
      `| the check | ${pct(verify, 50)} ms | ${pct(verify, 95)} ms | ${verify.at(-1)} ms |`,
    ].join("\n");
  } finally {
    await t.stop();
  }
}

if (import.meta.main) console.log(await benchOfflineRun());
