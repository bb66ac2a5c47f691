import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { AppError } from "../../src/contract/errors.ts";
import { importPaths } from "../../src/corpus/import/import-paths.ts";
import { createEngine } from "../../src/research/engine/engine.ts";
import { inlineRanker, type Ranker } from "../../src/research/rank/rank-job.ts";
import { createLocal } from "../../src/research/search/local.ts";
import type { Source } from "../../src/research/types.ts";
import { finalizeCitations } from "../../src/research/write/citations.ts";
import { FLOORS, relevantSources } from "../../src/research/write/extractive-relevance.ts";
import { writeExtractive } from "../../src/research/write/extractive-writer.ts";
import type { WriterSource } from "../../src/research/write/prompt.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { splitPassages } from "../../src/text/passages.ts";
import { sharedCollection } from "../corpus/collections-helpers.ts";

const SCIFACT = new URL("../../../shared/data/scifact/", import.meta.url).pathname;
const PAGES = new URL("../../../shared/data/extraction/", import.meta.url).pathname;
const OFF_TOPIC = "What limits solid-state batteries?";

/** One run's writer input (captured at the ranker) and what it cited, by SciFact doc id. */
interface Case {
  relevant: Set<string>;
  docOf: Map<string, string>;
  sources: WriterSource[];
  after: string[];
}

/** The doc ids an answer cites, written over `sources` as the writer did before the floors. */
function citedBefore(question: string, c: Case): string[] {
  const answer = writeExtractive(question, "en", c.sources);
  const provided = c.sources.map((s) => ({ id: s.id }) as Source);
  return finalizeCitations(answer, provided).was.map((id) => c.docOf.get(id)!);
}

function score(cases: [string, Case][], cited: (q: string, c: Case) => string[]) {
  let all = 0,
    gold = 0,
    none = 0,
    n = 0;
  for (const [q, c] of cases) {
    const ids = cited(q, c);
    n += ids.length;
    if (!ids.length) none++;
    else if (ids.every((d) => c.relevant.has(d))) all++;
    if (ids.some((d) => c.relevant.has(d))) gold++;
  }
  const pct = (x: number) => `${((100 * x) / cases.length).toFixed(1)} %`;
  return `${pct(all)} | ${pct(gold)} | ${pct(none)} | ${(n / cases.length).toFixed(2)}`;
}

/** Every SciFact training claim through the engine (the collection, no model), its writer's input kept. */
async function scifactCases(): Promise<{ cases: [string, Case][]; offTopic: { answer: string; sources: number } }> {
  const store = openSqliteStore(join(mkdtempSync(join(tmpdir(), "rq-bench-rel-")), "rq.db"));
  await importPaths(store, [`${SCIFACT}corpus.jsonl.gz`], { collection: await sharedCollection(store, "scifact") });
  let seen: WriterSource[] = [];
  const ranker: Ranker = async (job, signal) => {
    const chosen = await inlineRanker(job, signal);
    const byKey = new Map(job.docs.map((d) => [d.key, d]));
    seen = chosen.map((c, i) => ({ id: `S${i + 1}`, title: byKey.get(c.key)!.title, url: "", passages: c.passages }));
    return chosen;
  };
  const local = createLocal({ store });
  const engine = createEngine({
    llm: null,
    search: { web: [], academic: [], local, localOnly: true },
    allowPrivate: false,
    ranker,
  });
  const run = async (q: string) => {
    const docOf = new Map<string, string>();
    // A run that ends no_sources (its sources hold no whole sentence) cites nothing, as it answers.
    const r = await engine
      .run(q, {
        signal: new AbortController().signal,
        reader: "all",
        emit: (e) => {
          if (e.type === "source") docOf.set(e.source.id, e.source.doc_id ?? "");
        },
      })
      .catch((e: unknown) => {
        if (e instanceof AppError && e.code === "no_sources")
          return { answer: null, sources: [] as { doc_id?: string }[] };
        throw e;
      });
    return { r, docOf, sources: seen };
  };
  const claims = readFileSync(`${SCIFACT}queries-train.jsonl`, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { text: string; relevant: string[] });
  const cases: [string, Case][] = [];
  for (const c of claims) {
    const { r, docOf, sources } = await run(c.text);
    cases.push([c.text, { relevant: new Set(c.relevant), docOf, sources, after: r.sources.map((s) => s.doc_id!) }]);
  }
  const off = (await run(OFF_TOPIC)).r;
  store.close();
  return { cases, offTopic: { answer: off.answer ?? "(none: no_sources)", sources: off.sources.length } };
}

/** The extraction benchmark's articles, each asked by its page's title beside four others: is the article itself kept? */
function pagesKept(): string {
  const gold = JSON.parse(readFileSync(`${PAGES}ground-truth.json`, "utf8")) as Record<string, { articleBody: string }>;
  const pages = Object.entries(gold)
    .map(([id, g]) => {
      const html = gunzipSync(readFileSync(`${PAGES}pages/${id}.html.gz`)).toString();
      const title = (html.match(/<title[^>]*>([^<]*)<\/title>/i)?.[1] ?? "").split(/ [|–—-] /)[0]!.trim();
      return { title, passages: splitPassages(g.articleBody).slice(0, 3) };
    })
    .filter((p) => p.title.split(/\s+/).length >= 3);
  let kept = 0,
    silenced = 0;
  pages.forEach((p, i) => {
    const set = [p, ...[1, 2, 3, 4].map((k) => pages[(i + 17 * k) % pages.length]!)].map(
      (d, j): WriterSource => ({ id: `S${j + 1}`, title: d.title, url: "", passages: d.passages }),
    );
    const left = relevantSources(p.title, "en", set);
    if (!left.length) silenced++;
    if (left.some((s) => s.id === "S1")) kept++;
  });
  return `Extraction pages (${pages.length} articles, each asked by its page's title beside four other articles): the article itself quoted in ${((100 * kept) / pages.length).toFixed(1)} %, nothing quoted in ${((100 * silenced) / pages.length).toFixed(1)} %.`;
}

/** Section 13: extractive answers before and after the relevance floors, on SciFact's training claims. */
export async function benchExtractiveRelevance(): Promise<string> {
  if (!existsSync(SCIFACT)) return `SciFact skipped: ${SCIFACT} is absent (see ../shared/data/README.md).`;
  const { cases, offTopic } = await scifactCases();
  const rows = [
    `| before (every source read) | ${score(cases, citedBefore)} |`,
    `| after (relative ${FLOORS.relative}, absolute ${FLOORS.absolute}) | ${score(cases, (_, c) => c.after)} |`,
  ];
  const sweep = [0.5, 0.6, 0.7, 0.8].map(
    (relative) =>
      `| relative ${relative}, absolute ${FLOORS.absolute} | ${score(cases, (q, c) => relevantSources(q, "en", c.sources, { relative, absolute: FLOORS.absolute }).map((s) => c.docOf.get(s.id)!))} |`,
  );
  const read = cases.filter(([, c]) => [...c.docOf.values()].some((d) => c.relevant.has(d))).length;
  return [
    `Extractive answers (no model) over SciFact's 5,183 abstracts as a collection, the ${cases.length} training claims through the engine; "all relevant": every cited source is a gold abstract of the claim; "gold cited": at least one is:`,
    "",
    "| | all relevant | gold cited | nothing cited | sources cited (mean) |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `A gold abstract is among the sources the writer is given in ${((100 * read) / cases.length).toFixed(1)} % of the claims: the most "gold cited" can be.`,
    "",
    "The floors tried (the sources kept, whatever the writer then quotes from them):",
    "",
    "| floors | all relevant | gold sources kept | nothing kept | sources kept (mean) |",
    "|---|---|---|---|---|",
    ...sweep,
    "",
    `"${OFF_TOPIC}" over SciFact: ${offTopic.sources} sources cited; the answer: "${offTopic.answer}"`,
    "",
    existsSync(PAGES) ? pagesKept() : "Extraction pages skipped: absent.",
  ].join("\n");
}

if (import.meta.main) console.log(await benchExtractiveRelevance());
