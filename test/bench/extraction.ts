import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { extractMainText } from "../../src/research/read/html-extract.ts";
import { aggregate, pageScore } from "./extraction-metric.ts";

const DATA = new URL("../../../shared/data/extraction/", import.meta.url).pathname;

/** Scores our extractor (and the committed peers) on the benchmark pages; throughput in MB/s. */
export async function benchExtraction(): Promise<string> {
  if (!existsSync(DATA)) return `extraction: skipped — ${DATA} is missing`;
  const gold = JSON.parse(readFileSync(DATA + "ground-truth.json", "utf8")) as Record<string, { articleBody: string }>;
  const pages = readdirSync(DATA + "pages").filter((f) => f.endsWith(".html.gz")).map((f) => ({ id: f.replace(/\.html\.gz$/, ""), html: gunzipSync(readFileSync(DATA + "pages/" + f)).toString("utf8") }));
  const bytes = pages.reduce((a, p) => a + Buffer.byteLength(p.html), 0);
  const ours: Record<string, string> = {};
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    for (const p of pages) ours[p.id] = extractMainText(p.html).text;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const mbps = bytes / 1e6 / (times[1]! / 1000);
  const rows = [`| system | F1 | precision | recall | MB/s |`, `|---|---|---|---|---|`];
  const score = (out: Record<string, string>) => aggregate(pages.map((p) => pageScore(gold[p.id]?.articleBody ?? "", out[p.id] ?? "")));
  const s = score(ours);
  rows.push(`| research-query | ${s.f1.toFixed(3)} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${mbps.toFixed(1)} |`);
  for (const f of existsSync(DATA + "peers") ? readdirSync(DATA + "peers") : []) {
    const peer = JSON.parse(readFileSync(DATA + "peers/" + f, "utf8")) as { output: Record<string, { articleBody: string }> };
    const out = Object.fromEntries(Object.entries(peer.output).map(([k, v]) => [k, v.articleBody]));
    const ps = score(out);
    rows.push(`| ${f.replace(/\.json$/, "")} (committed output) | ${ps.f1.toFixed(3)} | ${ps.precision.toFixed(3)} | ${ps.recall.toFixed(3)} | — |`);
  }
  return `extraction on ${pages.length} pages (${(bytes / 1e6).toFixed(1)} MB), median of 3 rounds:\n${rows.join("\n")}`;
}

if (import.meta.main) console.log(await benchExtraction());
