import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/open.ts";
import { apiKeys } from "../db/schema.ts";
import { AppError, sharedError } from "../errors.ts";
import { randomToken, sha256Hex } from "../util/crypto.ts";
import { nowIso } from "../util/time.ts";
import { UnknownKeys } from "./unknown-keys.ts";

export const KEY_PREFIX = "rq-";
const KEY_RE = /^rq-[A-Za-z0-9_-]{32}$/;

/** A key as the Console shows it: never the full key, never its hash. */
export interface KeyRecord {
  id: string; name: string | null; prefix: string; status: "active" | "revoked";
  created_at: string; last_used_at: string | null; revoked_at: string | null;
}

type Row = typeof apiKeys.$inferSelect;
const toRecord = (r: Row): KeyRecord => ({
  id: r.id, name: r.name, prefix: r.prefix, status: r.status,
  created_at: r.createdAt, last_used_at: r.lastUsedAt, revoked_at: r.revokedAt,
});

/** Creates a key: rq- + 32 base64url chars of 24 random bytes. The full key is returned once. */
export function createKey(db: Db, accountId: string, name: string | null): KeyRecord & { key: string } {
  const key = KEY_PREFIX + randomToken(24);
  const row: Row = {
    id: crypto.randomUUID(), accountId, name, prefix: key.slice(0, 12), keyHash: sha256Hex(key),
    status: "active", createdAt: nowIso(), lastUsedAt: null, revokedAt: null,
  };
  db.insert(apiKeys).values(row).run();
  unknownByDb.get(db)?.clear();
  return { ...toRecord(row), key };
}

export function listKeys(db: Db, accountId: string): KeyRecord[] {
  return db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).all().map(toRecord);
}

/** Revokes a key of this account; revoking again returns the same record. */
export function revokeKey(db: Db, accountId: string, keyId: string): KeyRecord {
  const owned = and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId));
  db.update(apiKeys).set({ status: "revoked", revokedAt: nowIso() }).where(and(owned, eq(apiKeys.status, "active"))).run();
  const r = db.select().from(apiKeys).where(owned).get();
  if (!r) throw new AppError("key_not_found", "no such key");
  return toRecord(r);
}

/** The authenticated identity behind a valid key. */
export interface KeyIdentity { keyId: string; accountId: string; prefix: string }

const MISSING = sharedError("missing_api_key", "no API key sent: use Authorization: Bearer <key> or X-Api-Key");
const INVALID = sharedError("invalid_api_key", "the API key is not valid");
const REVOKED = sharedError("key_inactive", "the API key was revoked");

const unknownByDb = new WeakMap<Db, UnknownKeys>();
function unknownKeys(db: Db): UnknownKeys {
  let u = unknownByDb.get(db);
  if (!u) { u = new UnknownKeys(); unknownByDb.set(db, u); }
  return u;
}

/**
 * Resolves a presented key against the database on every call (valid and revoked keys
 * are never cached, so a revocation takes effect on the very next call; see UnknownKeys
 * for the one thing remembered). Throws the SPEC §5 key failures.
 */
export function authenticateKey(db: Db, presented: string | undefined): KeyIdentity {
  if (presented === undefined || presented === "") throw MISSING;
  if (!presented.startsWith(KEY_PREFIX) || !KEY_RE.test(presented)) throw INVALID;
  // Every call and every refusal runs this: one raw statement (bun:sqlite caches it), no
  // drizzle row mapping, only the four columns the check needs.
  const hash = sha256Hex(presented);
  const unknown = unknownKeys(db);
  if (unknown.has(hash)) throw INVALID;
  const r = db.$client.query<{ id: string; accountId: string; prefix: string; status: string; lastUsedAt: string | null }, [string]>(
    "SELECT id, account_id AS accountId, prefix, status, last_used_at AS lastUsedAt FROM api_keys WHERE key_hash = ?",
  ).get(hash);
  if (!r) { unknown.add(hash); throw INVALID; }
  if (r.status !== "active") throw REVOKED;
  // last_used_at to the minute: a write per call would put a commit on every request's path.
  const now = Date.now();
  if (!r.lastUsedAt || now - Date.parse(r.lastUsedAt) > 60_000) {
    db.$client.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(new Date(now).toISOString(), r.id);
  }
  return { keyId: r.id, accountId: r.accountId, prefix: r.prefix };
}

/** SPEC §5.1: a Bearer value wins; otherwise X-Api-Key. */
export function presentedKey(headers: Headers): string | undefined {
  const auth = headers.get("authorization");
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  if (m) return m[1]!.trim();
  const x = headers.get("x-api-key");
  return x === null ? undefined : x.trim();
}
