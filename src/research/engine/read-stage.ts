import { endSpan } from "../../util/tracing/spans.ts";
import type { Plan } from "../plan/heuristic.ts";
import { hostOf } from "../read/host-of.ts";
import { type ReadAllOptions, type ReadResult, readCandidates } from "../read/read-all.ts";
import { fetchFactsOf } from "../read/read-url.ts";
import type { LocalProvider } from "../search/local.ts";
import type { RankedHit } from "../search/merge.ts";
import type { RunEvent } from "../types.ts";
import type { RunScope } from "./run-scope.ts";
import { pastRunChild } from "./traced.ts";

interface ReadStageOptions extends Omit<ReadAllOptions, "onResult"> {
  /** The run's collections, when it searched them: their hits are read from the store. */
  local?: LocalProvider;
  /** The question and the plan's queries: what a local document's passages are chosen for. */
  queryText: string;
  emit(event: RunEvent): void;
  onUpstream?: (provider: string, outcome: string) => void;
  /** Traces on: each page read, as it ends. */
  onRead?: (r: ReadResult) => void;
}

/** What the reading stage hands the writing one: every candidate's outcome, in the candidates' order. */
export interface Read {
  plan: Plan;
  candidates: number;
  results: ReadResult<RankedHit>[];
}

/** The reading stage: the best `maxCandidates` hits (8 unless set), each one's outcome a `progress` event. */
export async function readStage({ plan, hits }: { plan: Plan; hits: RankedHit[] }, run: RunScope): Promise<Read> {
  const { deps, timings: t, ctx } = run;
  const candidates = hits.slice(0, deps.maxCandidates ?? 8);
  ctx.emit({
    type: "progress",
    stage: "reading",
    message: `Reading ${candidates.length} sources`,
    urls: candidates.map((h) => h.url),
  });
  const results = await readSources(candidates, {
    signal: run.signal,
    allowPrivate: deps.allowPrivate,
    lookup: deps.lookup,
    parser: deps.parser,
    perPageTimeoutMs: t.pageTimeoutMs,
    stageDeadlineMs: t.readStageMs,
    graceMs: t.stragglerGraceMaxMs,
    graceFloorMs: t.stragglerGraceMinMs,
    local: run.providers.local,
    queryText: [run.question, ...plan.queries].join(" "),
    emit: ctx.emit,
    onUpstream: deps.onUpstream,
    ...(ctx.span ? { onRead: (r: ReadResult) => pageSpan(r, run) } : {}),
  });
  return { plan, candidates: candidates.length, results };
}

/**
 * The reading itself: web and academic candidates through readCandidates (the SSRF guard,
 * the page and stage clocks), documents of the collections straight from the store — they
 * are already read, so their URL, whatever it says, is never fetched. Results come back in
 * the candidates' order, as the rank stage's search-rank prior expects.
 */
async function readSources(candidates: RankedHit[], o: ReadStageOptions): Promise<ReadResult<RankedHit>[]> {
  const { local, queryText, emit, onUpstream, onRead, ...readOpts } = o;
  const isLocal = (h: RankedHit) => local !== undefined && h.local !== undefined;
  const [fetched, fromStore] = await Promise.all([
    readCandidates(
      candidates.filter((h) => !isLocal(h)),
      {
        ...readOpts,
        onResult: (r) => {
          onUpstream?.("page", r.used === "page" ? "ok" : (r.error?.reason ?? "error"));
          onRead?.(r);
          emit({
            type: "progress",
            stage: "reading",
            message: `${hostOf(r.hit.url)}: ${r.used === "page" ? "read" : r.used === "abstract" ? "abstract only" : `skipped (${r.error?.reason ?? "no text"})`}`,
            url: r.hit.url,
            host: hostOf(r.hit.url),
            used: r.used,
            reason: r.error?.reason,
            ms: r.ms,
          });
        },
      },
    ),
    Promise.all(candidates.filter(isLocal).map((h) => readLocal(h, local!, queryText, emit, readOpts.signal))),
  ]);
  const byHit = new Map<RankedHit, ReadResult<RankedHit>>([...fetched, ...fromStore].map((r) => [r.hit, r]));
  return candidates.flatMap((h) => byHit.get(h) ?? []);
}

/** One page read as a `research.read` span under the run's: its address without the query string (it may carry the question), status, bytes, parse time. */
function pageSpan(r: ReadResult, run: RunScope): void {
  let address: URL | null = null;
  try {
    address = new URL(r.hit.url);
  } catch {}
  const f = r.doc && fetchFactsOf(r.doc);
  const status = f?.status ?? r.error?.status;
  const span = pastRunChild(run, "research.read", r.ms, {
    "server.address": address?.hostname ?? "",
    "url.path": address?.pathname ?? "",
    "research.read.used": r.used,
    ...(status ? { "http.response.status_code": status } : {}),
    ...(f ? { "research.read.bytes": f.bytes, "research.read.parse_ms": f.parseMs } : {}),
  });
  endSpan(span, r.used === "none" ? (r.error?.reason ?? "no_text") : undefined);
}

async function readLocal(
  hit: RankedHit,
  local: LocalProvider,
  queryText: string,
  emit: ReadStageOptions["emit"],
  signal: AbortSignal,
): Promise<ReadResult<RankedHit>> {
  const t0 = performance.now();
  const text = await local.read(hit, queryText, signal);
  const ms = Math.round(performance.now() - t0);
  const ref = hit.local!;
  emit({
    type: "progress",
    stage: "reading",
    message: `${ref.collection}: ${text ? "read from collection" : "skipped (no text)"}`,
    url: hit.url,
    collection: ref.collection,
    doc_id: ref.docId,
    // Recorded, never sent: what lets a later read withhold this from a reader who lost the collection.
    collection_id: ref.collectionId,
    used: text ? "page" : "none",
    ms,
  });
  if (!text) return { hit, used: "none", ms };
  return { hit, used: "page", ms, doc: { url: hit.url, final_url: hit.url, title: hit.title, text, kind: "text" } };
}
