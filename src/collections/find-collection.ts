import { type Account, findAccountByEmail } from "../auth/accounts.ts";
import { normalizeEmail } from "../auth/email.ts";
import { AppError } from "../contract/errors.ts";
import type { CollectionRef, Store } from "../store/types.ts";

/**
 * Which collection `{name}` (and `?owner=EMAIL`) names for the caller (README "Collections for
 * a team"). Threat: one account learning anything of another's private collection — that it
 * exists, its name, its size — by probing names. Every collection the caller may not read
 * answers exactly as one that does not exist: 404 collection_not_found, the same words.
 */

const notFound = (name: string) =>
  new AppError("collection_not_found", `no collection named ${JSON.stringify(name)} that you can read`);
const notYours = (name: string) =>
  new AppError("collection_not_found", `no collection of yours named ${JSON.stringify(name)}`);

const readable = (c: CollectionRef | null, caller: Account): c is CollectionRef =>
  c !== null && (c.visibility === "shared" || c.ownerId === caller.id);

const isCaller = (caller: Account, owner: string) => normalizeEmail(owner) === normalizeEmail(caller.email);

/**
 * Lookups read the collection's row only (`collectionRef`), never its counts: a collection's
 * documents and passages counted on every call of its routes held the server's thread ~175 ms
 * per call at 100,000 documents. A route that shows the counts reads them itself.
 */

/**
 * The collection to read: with `owner`, that account's (the caller's own, or one shared; an
 * empty `owner`, the operator's with no owner);
 * without, the caller's own, else the shared one with no owner (the operator's), else the
 * one shared collection of that name. Several other owners sharing the name: 409
 * collection_ambiguous — they are all readable, so naming the problem discloses nothing.
 */
export async function readableCollection(
  store: Store,
  caller: Account,
  name: string,
  owner?: string,
): Promise<CollectionRef> {
  // An empty owner names the operator's collection (no owner), which the caller's own of that name would shadow.
  if (owner === "") {
    const c = await store.corpus.collectionRef(null, name);
    if (!readable(c, caller)) throw notFound(name);
    return c;
  }
  if (owner !== undefined) {
    const account = isCaller(caller, owner) ? caller : await findAccountByEmail(store, owner);
    const c = account ? await store.corpus.collectionRef(account.id, name) : null;
    if (!readable(c, caller)) throw notFound(name);
    return c;
  }
  const own = await store.corpus.collectionRef(caller.id, name);
  if (own) return own;
  const unowned = await store.corpus.collectionRef(null, name);
  if (readable(unowned, caller)) return unowned;
  const shared = (await store.corpus.sharedRefs(name)).filter((c) => c.ownerId !== caller.id);
  if (shared.length === 1) return shared[0]!;
  if (shared.length === 0) throw notFound(name);
  throw new AppError(
    "collection_ambiguous",
    `${shared.length} accounts share a collection named ${JSON.stringify(name)}: add ?owner=EMAIL to pick one`,
  );
}

/**
 * The caller's own collection `name`, the only kind a change may touch: another account's,
 * shared or not, and the operator's are 404 like a missing one. An `owner` that is not the
 * caller names none of the caller's.
 */
export async function ownCollection(
  store: Store,
  caller: Account,
  name: string,
  owner?: string,
): Promise<CollectionRef> {
  if (owner !== undefined && !isCaller(caller, owner)) throw notYours(name);
  const c = await store.corpus.collectionRef(caller.id, name);
  if (!c) throw notYours(name);
  return c;
}
