/**
 * The app's addresses of collections and documents, one place for building and reading them.
 *
 *   /documents                                     every collection the caller may read
 *   /documents/NAME[?owner=EMAIL]                  one collection
 *   /documents/NAME?doc=DOC_ID[&owner=EMAIL][#quote=TEXT]   one document, TEXT marked in it
 *
 * The doc_id rides in the query, not the path: any string may be one (a JSONL record's id),
 * and as a path segment "." or ".." would be folded away by the browser's URL parsing.
 * `owner` is there only for a collection of someone else: the API takes NAME as the caller's
 * own first. The quoted passage rides in the fragment, which the browser never sends to the
 * server, so what an answer quoted stays out of access logs
 * (docs/decisions/0087-document-pages-in-the-web-app.md).
 */

export interface CollectionAddress {
  name: string;
  /**
   * The owner's email when the collection is not the caller's; "" for the operator's (no
   * owner: the caller may have one of that name too); null or absent for the caller's own.
   */
  owner?: string | null;
}

export interface DocumentAddress extends CollectionAddress {
  docId: string;
}

/** `?doc=…&owner=…`, each only when given. */
function appQuery(doc: string | null, owner: string | null | undefined): string {
  const q = new URLSearchParams();
  if (doc !== null) q.set("doc", doc);
  if (owner !== null && owner !== undefined) q.set("owner", owner);
  const s = q.toString().replaceAll("+", "%20");
  return s ? `?${s}` : "";
}

export function collectionHref(c: CollectionAddress): string {
  return `/documents/${encodeURIComponent(c.name)}${appQuery(null, c.owner)}`;
}

export function documentHref(d: DocumentAddress, quote?: string): string {
  const hash = quote ? `#quote=${encodeURIComponent(quote)}` : "";
  return `/documents/${encodeURIComponent(d.name)}${appQuery(d.docId, d.owner)}${hash}`;
}

/** The API path of a collection (or of something under it), with ?owner= when given, and `query`. */
export function collectionApi(c: CollectionAddress, rest = "", query: Record<string, string> = {}): string {
  const q = new URLSearchParams(
    c.owner !== null && c.owner !== undefined ? { owner: c.owner, ...query } : query,
  ).toString();
  return `/api/console/collections/${encodeURIComponent(c.name)}${rest}${q ? `?${q}` : ""}`;
}

/** The API path of one document: its doc_id as one percent-encoded segment. */
export function documentApi(d: DocumentAddress, query: Record<string, string> = {}): string {
  return collectionApi(d, `/documents/${encodeURIComponent(d.docId)}`, query);
}

/** What /documents/NAME names: a collection, or one of its documents; null when malformed. */
export function readAddress(
  pathname: string,
  search: string,
): { collection: CollectionAddress; docId: string | null } | null {
  const m = /^\/documents\/([^/]+)$/.exec(pathname);
  if (!m) return null;
  try {
    const q = new URLSearchParams(search);
    return { collection: { name: decodeURIComponent(m[1]!), owner: q.get("owner") }, docId: q.get("doc") };
  } catch {
    return null; // a broken percent-escape
  }
}

/** The passage to mark, from the address's fragment; null when there is none. */
export function quoteOf(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, "")).get("quote") || null;
}
