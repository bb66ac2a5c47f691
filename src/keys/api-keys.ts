import { KEY_LIST_PAGE, KEY_PATTERN, type KeyList, type KeyRecord, type RevokedKey } from "../contract/console.ts";
import { AppError, sharedError } from "../contract/errors.ts";
import type { AuditNote, Awaitable, KeyCheck, KeyRow, Store } from "../store/types.ts";
import { randomToken, sha256Hex } from "../util/crypto.ts";
import { UnknownKeys } from "./unknown-keys.ts";

export const KEY_PREFIX = "rq-";
const KEY_RE = new RegExp(KEY_PATTERN);

/** A key as the Console shows it: never the full key, never its hash. */
const toRecord = (r: KeyRow): KeyRecord => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  status: r.status,
  created_at: r.createdAt,
  last_used_at: r.lastUsedAt,
  revoked_at: r.revokedAt,
});

/**
 * Creates a key: rq- + 32 base64url chars of 24 random bytes. The full key is returned once.
 * With `sessionToken` (the Console), only while that session is still live: 401 unauthorized
 * when a takeover or sign-out ended it after it was checked.
 */
export async function createKey(
  store: Store,
  accountId: string,
  name: string | null,
  maxActive: number,
  sessionToken?: string,
  audit?: (prefix: string) => AuditNote,
): Promise<KeyRecord & { key: string; audited?: AuditNote }> {
  const key = KEY_PREFIX + randomToken(24);
  const row: KeyRow = {
    id: crypto.randomUUID(),
    accountId,
    name,
    prefix: key.slice(0, 12),
    keyHash: sha256Hex(key),
    status: "active",
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  const whileSession = sessionToken ? { tokenHash: sha256Hex(sessionToken), now: row.createdAt } : undefined;
  // Threat: an account minting keys without end (thousands a second), each a row every list reads.
  const note = audit?.(row.prefix);
  const written = await store.apiKeys.insertWithin(row, maxActive, whileSession, note);
  if (written === "no_session")
    throw new AppError("unauthorized", "sign in first: this endpoint needs the session cookie");
  if (written === "limit")
    throw new AppError("key_limit_reached", `this account already has ${maxActive} active keys: revoke one first`);
  unknownByStore.get(store)?.clear();
  return note ? { ...toRecord(row), key, audited: note } : { ...toRecord(row), key };
}

export async function listKeys(store: Store, accountId: string): Promise<KeyRecord[]> {
  return (await store.apiKeys.listByAccount(accountId)).map(toRecord);
}

/**
 * One page of the account's keys, newest first, from the key `from` on. Paged because revoked
 * keys stay listed and pile up without bound (create and revoke in turn), whatever the cap on
 * active ones: a page reads at most KEY_LIST_PAGE + 1 rows, however many the account made.
 */
export async function listKeyPage(store: Store, accountId: string, from: string | null): Promise<KeyList> {
  // One key more than the page says whether any follow, and which one `next` names.
  const rows = await store.apiKeys.pageByAccount(accountId, from, KEY_LIST_PAGE + 1);
  return { keys: rows.slice(0, KEY_LIST_PAGE).map(toRecord), next: rows[KEY_LIST_PAGE]?.id ?? null };
}

/** Revokes a key of this account; revoking again answers the same record (first revocation time). */
/** `audit`: the entry of the revocation, recorded only when an active key of the account is revoked now. */
export async function revokeKey(
  store: Store,
  accountId: string,
  keyId: string,
  audit?: (prefix: string) => AuditNote,
): Promise<RevokedKey & { audited?: AuditNote }> {
  const at = new Date().toISOString();
  const [mine] = audit ? await store.apiKeys.pageByAccount(accountId, keyId, 1) : [];
  const note = mine?.id === keyId && mine.status === "active" ? audit?.(mine.prefix) : undefined;
  const r = await store.apiKeys.revoke(accountId, keyId, at, note);
  if (!r) throw new AppError("key_not_found", "no such key");
  if (note && r.revokedAt === at) return { id: r.id, status: "revoked", revoked_at: at, audited: note };
  // A key revoked without a time (by hand in the database) reports this revocation's.
  return { id: r.id, status: "revoked", revoked_at: r.revokedAt ?? at };
}

/** The authenticated identity behind a valid key. */
export interface KeyIdentity {
  keyId: string;
  accountId: string;
  prefix: string;
}

const MISSING = sharedError("missing_api_key", "no API key sent: use Authorization: Bearer <key> or X-Api-Key");
const INVALID = sharedError("invalid_api_key", "the API key is not valid");
const REVOKED = sharedError("key_inactive", "the API key was revoked");

const TOUCH_MS = 60_000;
/** When this process last touched each key: keys seen in the last minute (cleared past 10,000). */
const touchedByStore = new WeakMap<Store, Map<string, number>>();
function touchedOf(store: Store): Map<string, number> {
  let t = touchedByStore.get(store);
  if (!t) {
    t = new Map();
    touchedByStore.set(store, t);
  }
  return t;
}

const unknownByStore = new WeakMap<Store, UnknownKeys>();
function unknownKeys(store: Store): UnknownKeys {
  let u = unknownByStore.get(store);
  if (!u) {
    u = new UnknownKeys();
    unknownByStore.set(store, u);
  }
  return u;
}

/**
 * Resolves a presented key against the store on every call (valid and revoked keys are
 * never cached, so a revocation takes effect on the very next call; see UnknownKeys for
 * the one thing remembered). Throws the key failures (README "The API"). Synchronous when the
 * store is (SQLite): the commonest refusal never waits on a promise.
 */
export function authenticateKey(store: Store, presented: string | undefined): Awaitable<KeyIdentity> {
  if (presented === undefined || presented === "") throw MISSING;
  if (!presented.startsWith(KEY_PREFIX) || !KEY_RE.test(presented)) throw INVALID;
  const hash = sha256Hex(presented);
  const unknown = unknownKeys(store);
  if (unknown.has(hash)) throw INVALID;
  const found = store.apiKeys.byHash(hash);
  return found instanceof Promise
    ? found.then((r) => checked(store, unknown, hash, r))
    : checked(store, unknown, hash, found);
}

function checked(store: Store, unknown: UnknownKeys, hash: string, r: KeyCheck | null): KeyIdentity {
  if (!r) {
    unknown.add(hash);
    throw INVALID;
  }
  if (r.status !== "active") throw REVOKED;
  // last_used_at to the minute: a write per call would put a commit on every request's path.
  // The calls of a burst all read the old value before the first touch lands: one touch per
  // key and minute from this process, not one per call queueing on the key's row.
  const now = Date.now();
  if (!r.lastUsedAt || now - Date.parse(r.lastUsedAt) > TOUCH_MS) {
    const touched = touchedOf(store);
    if (now - (touched.get(r.id) ?? 0) > TOUCH_MS) {
      if (touched.size >= 10_000) touched.clear();
      touched.set(r.id, now);
      void store.apiKeys.touch(r.id, new Date(now).toISOString());
    }
  }
  return { keyId: r.id, accountId: r.accountId, prefix: r.prefix };
}

/** README "The API": a Bearer value wins; otherwise X-Api-Key. */
export function presentedKey(headers: Headers): string | undefined {
  const auth = headers.get("authorization");
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  if (m) return m[1]!.trim();
  const x = headers.get("x-api-key");
  return x === null ? undefined : x.trim();
}
