import { importPaths } from "../../src/corpus/import/import-paths.ts";
import { sharedCollection } from "../corpus/collections-helpers.ts";
import { query } from "../helpers/server.ts";
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

  const t = await startCollectionsServer({ LOG_LEVEL: "silent" });
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
    return [
      `Fully offline runs over SciFact (${imported.added} abstracts, imported in ${(importMs / 1000).toFixed(1)} s), ${claims.length} training claims through POST /api/query, SearXNG unreachable, no academic database, extractive writer:`,
      "",
      "| runs | ok | all sources local | sources cited (mean) | p50 | p95 | max |",
      "|---|---|---|---|---|---|---|",
      `| ${claims.length} | ${ok} | ${allLocal} | ${(cited / Math.max(1, ok)).toFixed(1)} | ${pct(walls, 50).toFixed(0)} ms | ${pct(walls, 95).toFixed(0)} ms | ${walls.at(-1)!.toFixed(0)} ms |`,
    ].join("\n");
  } finally {
    await t.stop();
  }
}

if (import.meta.main) console.log(await benchOfflineRun());
