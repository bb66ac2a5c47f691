import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { JSDOM } from "jsdom";
import { extractMainText } from "../../src/text/html-extract.ts";
import { aggregate, pageScore } from "./extraction-metric.ts";
import { benchMultilingual } from "./extraction-multilingual.ts";
import { type Extractor, onLinkedom, readabilityOn, timed } from "./extractors.ts";

const onJsdom = readabilityOn((html) => new JSDOM(html).window.document);

const DATA = new URL("../../../shared/data/extraction/", import.meta.url).pathname;

/** Scores our extractor (and the committed peers) on the benchmark pages; throughput in MB/s. */
export async function benchExtraction(): Promise<string> {
  if (!existsSync(DATA)) return `extraction: skipped — ${DATA} is missing`;
  const gold = JSON.parse(readFileSync(DATA + "ground-truth.json", "utf8")) as Record<string, { articleBody: string }>;
  const pages = readdirSync(DATA + "pages")
    .filter((f) => f.endsWith(".html.gz"))
    .map((f) => ({
      id: f.replace(/\.html\.gz$/, ""),
      html: gunzipSync(readFileSync(DATA + "pages/" + f)).toString("utf8"),
    }));
  const bytes = pages.reduce((a, p) => a + Buffer.byteLength(p.html), 0);
  const rows = [`| system | F1 | precision | recall | MB/s (median) |`, `|---|---|---|---|---|`];
  const score = (out: Record<string, string | null>) =>
    aggregate(pages.map((p) => pageScore(gold[p.id]?.articleBody ?? "", out[p.id] ?? "")));
  const runs: [string, Extractor, number][] = [
    ["research-query (ours, linkedom)", (h) => extractMainText(h).text, 5],
    ["Mozilla Readability 0.6 on linkedom (same process)", onLinkedom, 3],
    ["Mozilla Readability 0.6 on jsdom (same process)", onJsdom, 1],
  ];
  const speed: number[] = [];
  for (const [name, fn, rounds] of runs) {
    const { out, mbps } = timed(pages, bytes, fn, rounds);
    const s = score(out);
    speed.push(mbps);
    rows.push(
      `| ${name} | ${s.f1.toFixed(3)} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${mbps.toFixed(1)} |`,
    );
  }
  for (const f of existsSync(DATA + "peers") ? readdirSync(DATA + "peers") : []) {
    const peer = JSON.parse(readFileSync(DATA + "peers/" + f, "utf8")) as {
      output: Record<string, { articleBody: string }>;
    };
    const out = Object.fromEntries(Object.entries(peer.output).map(([k, v]) => [k, v.articleBody]));
    const ps = score(out);
    rows.push(
      `| ${f.replace(/\.json$/, "")} (committed output) | ${ps.f1.toFixed(3)} | ${ps.precision.toFixed(3)} | ${ps.recall.toFixed(3)} | — |`,
    );
  }
  const first = `Extraction on ${pages.length} pages (${(bytes / 1e6).toFixed(1)} MB). Throughput ours ÷ Readability-on-linkedom: ${(speed[0]! / speed[1]!).toFixed(2)}×\n\n${rows.join("\n")}`;
  return `${first}\n\n${await benchMultilingual()}`;
}

if (import.meta.main) console.log(await benchExtraction());
