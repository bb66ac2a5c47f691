/**
 * Text every backend can hold (docs/decisions/0100-text-a-database-cannot-hold.md). PostgreSQL
 * refuses U+0000 in text and any string that is not valid UTF-8, which a JavaScript string
 * with an unpaired surrogate ("\ud800", a JSON escape away) becomes; SQLite takes both and
 * gives back something else. Threat: one caller's string failing writes (a 500, an aborted
 * import, a `db copy` that cannot finish) for every user of the database.
 *
 * What a caller sends is refused with `unstorableAt` at the door (the request-body parser,
 * the URL, MCP's arguments); what comes from elsewhere (documents, pages, answers, upstream
 * messages) is stored cleaned by `storable`: NUL dropped, an unpaired surrogate made U+FFFD.
 */

const SUSPECT = /[\0\ud800-\udfff]/;

/** True when the string holds neither NUL nor an unpaired surrogate. */
export function isStorableText(s: string): boolean {
  return !SUSPECT.test(s) || (!s.includes("\0") && s.isWellFormed());
}

/**
 * The string with each NUL made `nul` (dropped by default) and each unpaired surrogate made
 * U+FFFD; the same string when already clean.
 */
export function storableText(s: string, nul = ""): string {
  return isStorableText(s) ? s : s.replaceAll("\0", nul).toWellFormed();
}

/**
 * The value with every string in it (object keys too) made storable; the same value, not a
 * copy, when nothing needed cleaning (a run's timeline is walked on every finish).
 */
export function storable<T>(value: T, nul = ""): T {
  // Nearly always clean: looked at without copying first (a run's timeline is walked on every finish).
  return isClean(value) ? value : (clean(value, nul) as T);
}

function isClean(v: unknown): boolean {
  if (typeof v === "string") return isStorableText(v);
  if (v === null || typeof v !== "object" || v instanceof Date || ArrayBuffer.isView(v)) return true;
  if (Array.isArray(v)) {
    for (const item of v) if (!isClean(item)) return false;
    return true;
  }
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    if (!isStorableText(k) || !isClean((v as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function clean(v: unknown, nul: string): unknown {
  if (typeof v === "string") return storableText(v, nul);
  if (Array.isArray(v)) {
    const out = v.map((item) => clean(item, nul));
    return out.some((c, i) => c !== v[i]) ? out : v;
  }
  if (v === null || typeof v !== "object" || v instanceof Date || ArrayBuffer.isView(v)) return v;
  let changed = false;
  const entries = Object.entries(v).map(([k, item]) => {
    const ck = storableText(k, nul);
    const c = clean(item, nul);
    if (ck !== k || c !== item) changed = true;
    return [ck, c] as const;
  });
  return changed ? Object.fromEntries(entries) : v;
}

/**
 * Where in a value sent by a caller the first string that is not storable text sits, as the
 * caller would name it (`query`, `items[2].title`, `a key of filters`); null when there is none.
 */
export function unstorableAt(value: unknown, at?: string): string | null {
  if (typeof value === "string") return isStorableText(value) ? null : (at ?? "the value");
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorableAt(item, `${at ?? ""}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== "object") return null;
  for (const [k, item] of Object.entries(value)) {
    if (!isStorableText(k)) return at ? `a key of ${at}` : "a key";
    const found = unstorableAt(item, at ? `${at}.${k}` : k);
    if (found) return found;
  }
  return null;
}

/** The refusal's words for text found by `unstorableAt`. */
export function unstorableMessage(at: string): string {
  return `${at} holds U+0000 (NUL) or an unpaired surrogate: not accepted in text`;
}
