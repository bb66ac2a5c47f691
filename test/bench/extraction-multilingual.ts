import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { decodeText } from "../../src/text/charset.ts";
import { extractMainText } from "../../src/text/html-extract.ts";
import { onLinkedom, timed } from "./extractors.ts";

// trafilatura's evaluation pages: multilingual, mixed kinds, some malformed; snippet-based
// ground truth scored by the set's own score.ts (read from the data directory, never copied).
const DATA = new URL("../../../shared/data/extraction-2/", import.meta.url).pathname;

interface Scored {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  perPage: Record<string, { tp: number; fp: number; fn: number }>;
}
type ScoreAll = (gt: Record<string, unknown>, results: Record<string, string | null>) => Scored;

/** The pages as a fetch would hand them to the reader: raw bytes decoded by their own charset. */
export function loadMultilingual(): { id: string; html: string }[] {
  return readdirSync(DATA + "pages")
    .filter((f) => f.endsWith(".html.gz"))
    .sort()
    .map((f) => ({
      id: f.replace(/\.html\.gz$/, ""),
      html: decodeText(gunzipSync(readFileSync(DATA + "pages/" + f)), "text/html"),
    }));
}

/** Scores `out` with the set's own scorer. */
export async function scoreMultilingual(out: Record<string, string | null>): Promise<Scored> {
  const { scoreAll } = (await import(DATA + "score.ts")) as { scoreAll: ScoreAll };
  return scoreAll(JSON.parse(readFileSync(DATA + "ground-truth.json", "utf8")), out);
}

/** Ours and Readability-on-linkedom on the second set, F1 (P, R) and MB/s from the same run. */
export async function benchMultilingual(): Promise<string> {
  if (!existsSync(DATA)) return `extraction-2: skipped — ${DATA} is missing`;
  const pages = loadMultilingual();
  const bytes = pages.reduce((a, p) => a + Buffer.byteLength(p.html), 0);
  const rows = [`| system | F1 | precision | recall | MB/s (median) |`, `|---|---|---|---|---|`];
  const row = (name: string, s: Scored, mbps?: number) =>
    `| ${name} | ${s.f1.toFixed(3)} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${mbps === undefined ? "—" : mbps.toFixed(1)} |`;
  const speed: number[] = [];
  for (const [name, fn, rounds] of [
    ["research-query (ours, linkedom)", (h: string) => extractMainText(h).text, 3],
    ["Mozilla Readability 0.6 on linkedom (same process)", onLinkedom, 1],
  ] as const) {
    const { out, mbps } = timed(pages, bytes, fn, rounds);
    speed.push(mbps);
    rows.push(row(name, await scoreMultilingual(out), speed.at(-1)));
  }
  const peer = DATA + "peers/readability_js.json.gz";
  if (existsSync(peer))
    rows.push(
      row(
        "readability_js on linkedom (committed output)",
        await scoreMultilingual(JSON.parse(gunzipSync(readFileSync(peer)).toString("utf8")).output),
      ),
    );
  return `Extraction-2 (trafilatura's evaluation pages) on ${pages.length} pages (${(bytes / 1e6).toFixed(1)} MB). Throughput ours ÷ Readability-on-linkedom: ${(speed[0]! / speed[1]!).toFixed(2)}×\n\n${rows.join("\n")}`;
}
