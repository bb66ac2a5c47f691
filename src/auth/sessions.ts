import { and, eq, gt, lt, sql } from "drizzle-orm";
import { prepared } from "../db/prepared.ts";
import type { Db } from "../db/open.ts";
import { sessions } from "../db/schema.ts";
import { randomToken, sha256Hex } from "../util/crypto.ts";
import { nowIso } from "../util/time.ts";

export const SESSION_COOKIE = "auth_token";

/**
 * Starts a server-side session. The cookie carries a random token; only its hash is
 * stored, so a copy of the database cannot be replayed as a live session.
 */
export function createSession(db: Db, accountId: string, ttlDays: number): { token: string; expiresAt: Date } {
  const token = randomToken(32);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlDays * 86_400_000);
  db.insert(sessions).values({
    id: crypto.randomUUID(), accountId, tokenHash: sha256Hex(token), createdAt: nowIso(now), expiresAt: nowIso(expiresAt),
  }).run();
  // Expired rows are swept opportunistically; they are refused regardless.
  db.delete(sessions).where(lt(sessions.expiresAt, nowIso(now))).run();
  return { token, expiresAt };
}

/** The account id of a live session, or null (unknown, expired or ended). */
export function resolveSession(db: Db, token: string | undefined): string | null {
  if (!token || token.length > 200) return null;
  const r = prepared(db, "session-by-hash", (d) => d.select({ accountId: sessions.accountId }).from(sessions)
    .where(and(eq(sessions.tokenHash, sql.placeholder("hash")), gt(sessions.expiresAt, sql.placeholder("now")))).prepare())
    .get({ hash: sha256Hex(token), now: nowIso() });
  return r?.accountId ?? null;
}

export function endSession(db: Db, token: string | undefined): void {
  if (token) db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token))).run();
}
