import type { Source } from "../../contract/envelope.ts";
import type { StreamEvent } from "../../contract/events.ts";
import type { RunEvent } from "../../research/types.ts";
import type { TimelineAs } from "../run-log.ts";

/**
 * The local items of a run — a source from a collection, the progress event of reading one —
 * are recorded with the store's id of their collection (names are unique per owner only, and
 * change), so that every later read of the run can withhold what its reader may no longer
 * read (docs/decisions/0086-earlier-runs-withhold-what-their-reader-cannot-read.md). The id
 * is the record's alone: what callers are sent never carries it.
 */
export const COLLECTION_ID = "collection_id";

/** The collection a recorded local item names by id; null when it names none (recorded before ids were). */
export function collectionIdOf(item: object): number | null {
  const id = (item as Record<string, unknown>)[COLLECTION_ID];
  return typeof id === "number" ? id : null;
}

/** A recorded source or progress detail as callers get it: without its collection's id. */
export function withoutCollectionId<T extends object>(item: T): T {
  if (!(COLLECTION_ID in item)) return item;
  const { [COLLECTION_ID]: _, ...rest } = item as Record<string, unknown>;
  return rest as T;
}

/** A source as callers get it. */
export const wireSource = (s: Source): Source => withoutCollectionId(s);

/**
 * An engine event as the stream sends it, and, when it differs, as the run's timeline keeps
 * it (with its collection's id). Answer deltas are the caller's to handle.
 */
export function wireAndRecord(ev: Exclude<RunEvent, { type: "answer" }>): { event: StreamEvent; as?: TimelineAs } {
  if (ev.type === "source") {
    const event: StreamEvent = { event: "source", data: wireSource(ev.source) };
    return event.data === ev.source ? { event } : { event, as: { type: "source", data: { source: ev.source } } };
  }
  const { type: _, ...data } = ev;
  const sent = withoutCollectionId(data);
  return { event: { event: "progress", data: sent }, ...(sent === data ? {} : { as: { type: "progress", data } }) };
}
