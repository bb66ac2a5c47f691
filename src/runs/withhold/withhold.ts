import type { Source } from "../../contract/envelope.ts";
import { verifyingMessage } from "../../research/engine/verify-stage.ts";
import { hostOf } from "../../research/read/host-of.ts";
import { answerClaims } from "../../research/write/verify/answer-claims.ts";
import type { RunRow, Store, TimelineEvent } from "../../store/types.ts";
import { collectionIdOf, withoutCollectionId } from "../local/recorded-local.ts";
import { countsLeft } from "./withheld-counts.ts";
import { withholdAnswerEntry, withholdBlocks } from "./withhold-answer.ts";

/** A run as the store keeps it: its row and its timeline. */
export interface StoredRun {
  run: RunRow;
  events: TimelineEvent[];
}

/** What stands in for a withheld local source: the same id (the answer's markers still name it), nothing of the document. */
export function withheldSource(id: string): Source {
  return {
    id,
    title: "Withheld document",
    url: "local:withheld",
    type: "local",
    provider: "local",
    snippet: "Its collection was removed or is no longer shared with this account.",
    withheld: true,
  };
}

/** A local read's progress event (src/research/engine/read-stage.ts): it names the collection and the document. */
const isLocalRead = (d: Record<string, unknown>) => typeof d.collection === "string" && "doc_id" in d;

/**
 * An earlier run as its reader may see it now (README "Collections for a team"): the one
 * read every path shares — the replayed stream and the envelope of an Idempotency-Key or a
 * Last-Event-ID, the Console's timeline, and so remote MCP's rejoin. Threat: an account
 * keeping, through its earlier runs, what a collection's owner has since taken from it. A
 * local item whose collection `readable` no longer holds (made private, handed over,
 * removed — or recorded before items named their collection by id) is withheld: sources
 * become withheldSource, the progress of reading it loses the collection, document and
 * URL, its URL leaves the lists of the others, and the answer's blocks citing it become
 * WITHHELD_LINE, in the final answer and in the stream's deltas alike, the claim check's
 * counts then being those of the claims left. Collection ids are stripped from all of it.
 */
export function withhold(stored: StoredRun, readable: Set<number>): StoredRun {
  const gone = (item: object) => {
    const id = collectionIdOf(item);
    return id === null || !readable.has(id);
  };
  const urls = new Set<string>();
  const streamIds = new Set<string>();
  const source = (s: Source, ids?: Set<string>): Source => {
    if (s.type !== "local") return s;
    if (!gone(s)) return withoutCollectionId(s);
    urls.add(s.url);
    ids?.add(s.id.toUpperCase());
    return withheldSource(s.id);
  };
  const finalIds = new Set<string>();
  const sources = stored.run.sources.map((s) => source(s, finalIds));
  // First what names a document (so its URL is known), then the lists and the answer.
  const named = stored.events.map((e): TimelineEvent => {
    if (e.type === "source" && e.data.source) {
      return { ...e, data: { ...e.data, source: source(e.data.source as Source, streamIds) } };
    }
    if (e.type !== "progress" || !isLocalRead(e.data)) return e;
    if (!gone(e.data)) return { ...e, data: withoutCollectionId(e.data) };
    if (typeof e.data.url === "string") urls.add(e.data.url);
    const { stage, used, ms, seq } = e.data;
    return {
      ...e,
      data: { stage, message: "A document this account can no longer read (withheld)", used, ms, withheld: true, seq },
    };
  });
  if (!urls.size && !streamIds.size && !finalIds.size) return { run: { ...stored.run, sources }, events: named };
  const hosts = new Set([...urls].map(hostOf));
  const events = named.map((e): TimelineEvent => {
    if (e.type === "answer") return { ...e, data: withholdAnswerEntry(e.data, streamIds) };
    if (e.type !== "progress") return e;
    const data = { ...e.data };
    if (Array.isArray(data.urls)) data.urls = data.urls.filter((u) => !urls.has(u));
    if (Array.isArray(data.hosts)) data.hosts = data.hosts.filter((h) => !hosts.has(h));
    return { ...e, data };
  });
  const answer = stored.run.answer === null ? null : withholdBlocks(stored.run.answer, finalIds).text;
  const left = withoutWithheldClaims(sources, answer);
  const was = stored.run.verification;
  if (answer === stored.run.answer || answer === null || !was)
    return { run: { ...stored.run, sources: left, answer }, events };
  const written = events.find((e) => e.type === "answer")?.data.text;
  const verification = countsLeft(answer, left, typeof written === "string" ? written : null, was);
  const counted = events.map((e): TimelineEvent => {
    if (e.type !== "progress" || e.data.stage !== "verifying") return e;
    return { ...e, data: { ...e.data, ...verification, message: verifyingMessage(verification, stored.run.writer) } };
  });
  return { run: { ...stored.run, sources: left, answer, verification }, events: counted };
}

/**
 * Sources' evidence without the claims of withheld lines: a line citing a withheld document
 * and a web page too is that document's words, and must not come back as the web page's
 * evidence (README "Claims you can check").
 */
function withoutWithheldClaims(sources: Source[], answer: string | null): Source[] {
  if (!sources.some((s) => s.evidence?.length)) return sources;
  const left = new Set(answer === null ? [] : answerClaims(answer).map((c) => c.text));
  return sources.map((s) => (s.evidence ? { ...s, evidence: s.evidence.filter((e) => left.has(e.claim)) } : s));
}

/** A run of this account as it may read it now (withhold above), or null when it has no such run. */
export async function readRun(store: Store, accountId: string, runId: string): Promise<StoredRun | null> {
  const found = await store.runs.withEvents(accountId, runId);
  if (!found) return null;
  const local =
    found.run.sources.some((s) => s.type === "local") ||
    found.events.some(
      (e) =>
        (e.type === "source" && (e.data.source as Source | undefined)?.type === "local") ||
        (e.type === "progress" && isLocalRead(e.data)),
    );
  // Only a run that read the collections asks the store what its reader may read now.
  const readable = local ? new Set(await store.corpus.readable({ accounts: [accountId] })) : new Set<number>();
  return withhold(found, readable);
}
