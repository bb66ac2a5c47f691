import type { Account } from "../auth/accounts.ts";
import type { AuditScope } from "../auth/audit/audit.ts";
import type { Collection, CollectionStatus, Visibility } from "../contract/collections.ts";
import { AppError } from "../contract/errors.ts";
import type { CollectionSummary, Store } from "../store/types.ts";
import { collectionStatuses } from "./document-list.ts";
import { ownCollection } from "./find-collection.ts";
import { checkName } from "./name-check.ts";

/**
 * The Console's collections (README "Collections for a team"): the caller's own and every
 * shared one to read; only the caller's own to create, rename, re-share or remove.
 */

const toWire = (c: CollectionSummary, caller: Account, status: CollectionStatus): Collection => ({
  name: c.name,
  visibility: c.visibility,
  owner: c.owner,
  mine: c.ownerId === caller.id,
  documents: c.documents,
  bytes: c.bytes,
  status,
  passages: c.passages,
  chars: c.chars,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/** One collection as the Console shows it to the caller. */
export async function collectionAnswer(store: Store, c: CollectionSummary, caller: Account): Promise<Collection> {
  return toWire(c, caller, (await collectionStatuses(store, [c])).get(c.id)!);
}

/** The caller's own collections and every shared one, by name then owner. */
export async function listCollections(store: Store, caller: Account): Promise<Collection[]> {
  const all = await store.corpus.collections({ accounts: [caller.id] });
  const statuses = await collectionStatuses(store, all);
  return all.map((c) => toWire(c, caller, statuses.get(c.id)!));
}

const taken = (name: string) =>
  new AppError("collection_exists", `you already have a collection named ${JSON.stringify(name)}`);

/** A new, empty collection of the caller's: 400 for a bad name, 409 when the caller has one of that name. */
export async function createCollection(
  store: Store,
  caller: Account,
  body: { name: string; visibility?: Visibility },
  audit?: AuditScope,
): Promise<Collection> {
  checkName(body.name);
  const visibility = body.visibility ?? "private";
  const note = audit?.note("collection_created", { target: body.name, detail: visibility });
  const made = await store.corpus.createCollection({ name: body.name, ownerId: caller.id, visibility }, note);
  if (!made) throw taken(body.name);
  audit?.logged(note);
  return await collectionAnswer(store, made, caller);
}

/**
 * Renames the caller's collection, changes its visibility, or both, at once. Renaming to
 * the name it has is no change; to another of the caller's names is 409.
 */
export async function updateCollection(
  store: Store,
  caller: Account,
  at: { name: string; owner?: string },
  change: { name?: string; visibility?: Visibility },
  audit?: AuditScope,
): Promise<Collection> {
  if (change.name === undefined && change.visibility === undefined)
    throw new AppError("invalid_request", "send a new name, a visibility, or both");
  if (change.name !== undefined) checkName(change.name);
  const c = await ownCollection(store, caller, at.name, at.owner);
  // Only these two reach the store, whatever the body parser lets through: an `ownerId` must never hand it over.
  const note = audit && changeNote(audit, c, change);
  const outcome = await store.corpus.updateCollection(
    c.id,
    { name: change.name, visibility: change.visibility },
    note ?? undefined,
  );
  if (outcome === "taken") throw taken(change.name ?? c.name);
  if (note) audit?.logged(note, outcome === "ok");
  // Removed meanwhile by another request of the owner's: as if it had never been there.
  if (outcome === "missing") throw new AppError("collection_not_found", "the collection was removed meanwhile");
  const now = await store.corpus.findCollection(caller.id, change.name ?? c.name);
  if (!now) throw new AppError("collection_not_found", "the collection was removed meanwhile");
  return await collectionAnswer(store, now, caller);
}

/** Removes the caller's collection with its documents; how many documents went with it. */
export async function removeCollection(
  store: Store,
  caller: Account,
  at: { name: string; owner?: string },
  audit?: AuditScope,
): Promise<{ name: string; documents: number }> {
  const c = await ownCollection(store, caller, at.name, at.owner);
  const note = audit?.note("collection_deleted", { target: c.name });
  const documents = await store.corpus.removeCollection(c.id, note);
  if (documents === null) throw new AppError("collection_not_found", "the collection was removed meanwhile");
  audit?.logged(note);
  return { name: c.name, documents };
}

/**
 * The entry of a change: a rename (with the old name in its detail), else a change of
 * visibility; null when it changes nothing (no entry for no change).
 */
function changeNote(
  audit: AuditScope,
  c: { name: string; visibility: Visibility },
  change: { name?: string; visibility?: Visibility },
) {
  const renamed = change.name !== undefined && change.name !== c.name;
  const visibility = change.visibility !== undefined && change.visibility !== c.visibility ? change.visibility : null;
  if (renamed)
    return audit.note("collection_renamed", {
      target: change.name,
      detail: `from ${c.name}${visibility ? `; now ${visibility}` : ""}`,
    });
  if (visibility)
    return audit.note(visibility === "shared" ? "collection_shared" : "collection_unshared", { target: c.name });
  return null;
}
