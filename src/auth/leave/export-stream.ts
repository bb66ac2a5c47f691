import type { AccountRow, AuditRow, RunRow, Store } from "../../store/types.ts";

/** Rows read per call of the store: an export never holds more than a page of anything. */
export const EXPORT_PAGE = 100;

const enc = new TextEncoder();
const j = JSON.stringify;

const runOf = (r: RunRow) => ({
  request_id: r.id,
  created_at: r.createdAt,
  finished_at: r.finishedAt,
  origin: r.origin,
  endpoint: r.endpoint,
  key_prefix: r.keyPrefix,
  query: r.query,
  status: r.status,
  writer: r.writer,
  answer: r.answer,
  sources: r.sources,
  errors: r.errors,
  verification: r.verification,
  tokens_in: r.tokensIn,
  tokens_out: r.tokensOut,
  latency_ms: r.latencyMs,
});

const eventOf = (r: AuditRow) => ({
  at: r.at,
  action: r.action,
  actor: r.actor,
  target: r.target,
  ip: r.ip,
  detail: r.detail,
});

/** Items as the elements of a JSON array, each page after the first starting with its comma. */
async function* array<T>(pages: AsyncGenerator<T[]>, shown: (t: T) => unknown): AsyncGenerator<string> {
  let first = true;
  for await (const page of pages) {
    if (!page.length) continue;
    yield (first ? "" : ",") + page.map((t) => j(shown(t))).join(",");
    first = false;
  }
}

async function* keyPages(store: Store, id: string) {
  let from: string | null = null;
  do {
    const rows = await store.apiKeys.pageByAccount(id, from, EXPORT_PAGE + 1);
    yield rows.slice(0, EXPORT_PAGE).map(({ keyHash: _, accountId: __, ...k }) => k);
    from = rows.length > EXPORT_PAGE ? rows[EXPORT_PAGE]!.id : null;
  } while (from);
}

async function* runPages(store: Store, id: string) {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const rows = await store.runs.pageByAccount(id, after, EXPORT_PAGE);
    yield rows;
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1]!;
  }
}

async function* auditPages(store: Store, id: string) {
  let before: number | null = null;
  for (;;) {
    const rows = await store.audit.forAccount(id, before, EXPORT_PAGE);
    yield rows;
    if (rows.length < EXPORT_PAGE) return;
    before = rows[rows.length - 1]!.id;
  }
}

/** A collection's documents with their text: a page of ids, then one document's passages at a time. */
async function* documents(store: Store, collectionId: number): AsyncGenerator<string> {
  let from = "";
  let first = true;
  for (;;) {
    const ids = await store.corpus.documentIds(collectionId, from, EXPORT_PAGE + 1);
    for (const d of await store.corpus.documents(collectionId, ids.slice(0, EXPORT_PAGE))) {
      const passages = await store.corpus.bestPassages(d.id, [], Number.MAX_SAFE_INTEGER);
      const doc = { doc_id: d.docId, title: d.title, url: d.url, path: d.path, format: d.format, added_at: d.addedAt };
      yield (first ? "" : ",") + j({ ...doc, text: passages.map((p) => p.text).join("\n\n") });
      first = false;
    }
    if (ids.length <= EXPORT_PAGE) return;
    from = ids[EXPORT_PAGE]!;
  }
}

async function* exportParts(store: Store, a: AccountRow): AsyncGenerator<string> {
  const account = { id: a.id, email: a.email, plan: a.plan, created_at: a.createdAt, email_status: a.emailStatus };
  yield `{"exported_at":${j(new Date().toISOString())},"account":${j(account)},"keys":[`;
  yield* array(keyPages(store, a.id), (k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    status: k.status,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
  }));
  const usage = (await store.runCounters.byAccount(a.id)).map((u) => ({ month: u.period, runs: u.runs }));
  yield `],"usage":${j(usage)},"runs":[`;
  yield* array(runPages(store, a.id), runOf);
  yield `],"collections":[`;
  // Its own, shared ones included: what it uploaded is its to take (README "When a person leaves").
  const own = (await store.corpus.collections({ accounts: [a.id] })).filter((c) => c.ownerId === a.id);
  for (const [i, c] of own.entries()) {
    yield `${i ? "," : ""}{"name":${j(c.name)},"visibility":${j(c.visibility)},"created_at":${j(c.createdAt)},"documents":[`;
    yield* documents(store, c.id);
    yield "]}";
  }
  yield `],"audit":[`;
  yield* array(auditPages(store, a.id), eventOf);
  yield "]}\n";
}

/**
 * Everything the service keeps of an account as one JSON document (README "When a person
 * leaves"), streamed: each part is read from the store when the client is ready for it, a page
 * at a time, so an account with 100,000 documents is never in memory at once.
 */
export function exportStream(store: Store, account: AccountRow): ReadableStream<Uint8Array> {
  const parts = exportParts(store, account);
  return new ReadableStream({
    async pull(ctl) {
      const next = await parts.next();
      if (next.done) ctl.close();
      else ctl.enqueue(enc.encode(next.value));
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
}
