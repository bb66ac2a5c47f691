import { buildEngine } from "../../src/research/build-engine.ts";
import { createEngine } from "../../src/research/engine/engine.ts";
import type { TimingsOverride } from "../../src/research/engine/timings.ts";
import type { Verifier } from "../../src/research/engine/verify-stage.ts";
import { buildLlm } from "../../src/research/llm/factory.ts";
import { buildSearchProviders } from "../../src/research/search/registry.ts";
import type { RunningServer } from "../../src/server/server.ts";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/open.ts";
import type { CorpusDocumentInput } from "../../src/store/types.ts";
import { splitPassages } from "../../src/text/passages.ts";
import { createLogger } from "../../src/util/logger.ts";
import { putInto } from "../corpus/collections-helpers.ts";
import { keyedClient, startTestServer } from "../helpers/server.ts";

/** A document for a collection, as the importer would keep it. */
export interface NoteDoc {
  id: string;
  title: string;
  text: string;
  url?: string;
}

/** Notes a team might keep about its battery work: what the offline runs research. */
export const BATTERY_NOTES: NoteDoc[] = [
  {
    id: "reports/q3 review.md",
    title: "Q3 review: solid-state cells",
    text: "Solid-state batteries are limited by dendrites that grow through the ceramic electrolyte at high current.\n\nOur Q3 cells shorted after 40 cycles once lithium filaments crossed grain boundaries in the separator. Stack pressure above 5 MPa slowed the growth.",
  },
  {
    id: "notes/interfaces.md",
    title: "Interface resistance in solid electrolytes",
    text: "The interface between lithium metal and the solid electrolyte has a high resistance that limits solid-state batteries.\n\nVoids form at the interface during stripping, so contact is lost and the cell's impedance rises. Coatings of lithium niobate lowered the resistance in our tests.",
  },
  {
    id: "notes/manufacturing.md",
    title: "Making sulfide electrolytes at scale",
    text: "Sulfide electrolytes react with moisture and release hydrogen sulfide, so manufacturing needs dry rooms.\n\nThe cost of dry-room production limits how fast solid-state batteries can reach the market.",
  },
  {
    id: "notes/garden.md",
    title: "Office garden rota",
    text: "Tomatoes are watered on Mondays and Thursdays. The basil needs more sun than the window gives.",
  },
];

/** The documents as the importer keeps them: passages by splitPassages, one hash per text. */
export const noteInputs = (docs: NoteDoc[]): CorpusDocumentInput[] =>
  docs.map((d) => ({
    docId: d.id,
    title: d.title,
    url: d.url ?? null,
    path: d.id,
    format: "markdown",
    contentHash: new Bun.CryptoHasher("sha256").update(d.text).digest("hex"),
    truncated: false,
    passages: splitPassages(d.text),
  }));

/** Puts the documents into the unowned shared collection `collection` the way the importer does. */
export async function fillCollection(store: SqliteStore, collection: string, docs: NoteDoc[]): Promise<void> {
  await putInto(store, collection, noteInputs(docs));
}

/** The engine's clocks at fixture speed (pages on loopback answer in milliseconds). */
export const FAST: TimingsOverride = {
  pageTimeoutMs: 300,
  readStageMs: 2_000,
  stragglerGraceMaxMs: 300,
  llmRetryBaseMs: 5,
  llmRetryCapMs: 20,
};

/**
 * A port nothing listens on: a web provider configured there is unreachable, as on an
 * air-gapped box whose SearXNG is down.
 */
export function closedPort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

export interface CollectionsServer {
  srv: RunningServer;
  store: SqliteStore;
  key: string;
  stop(): Promise<void>;
}

/**
 * The real server and engine on one in-memory store (the collections live in it), with no
 * model configured unless `env` names one, no academic database, and a SearXNG on a closed
 * port unless `env` sets SEARXNG_URL. `verifier` stands in for the claim check (on this thread).
 */
export async function startCollectionsServer(
  env: Record<string, string> = {},
  verifier?: Verifier,
): Promise<CollectionsServer> {
  const store = openSqliteStore(":memory:");
  const srv = startTestServer({
    env: {
      PLAN_RUNS_FREE: "100",
      ACADEMIC_PROVIDERS: "none",
      SEARXNG_URL: `http://127.0.0.1:${closedPort()}`,
      LOG_LEVEL: "silent",
      ...env,
    },
    store,
    logger: createLogger("silent"),
    engine: (config, logger) =>
      verifier
        ? createEngine({
            llm: buildLlm(config),
            search: buildSearchProviders(config, {}, store),
            allowPrivate: config.FETCH_ALLOW_PRIVATE,
            verifier,
            timings: FAST,
          })
        : buildEngine(config, logger, undefined, FAST, store),
  });
  const { key } = await keyedClient(srv.url);
  return { srv, store, key, stop: () => srv.stop(100) };
}
