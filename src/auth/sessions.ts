import type { AuditNote, SessionProof, Store } from "../store/types.ts";
import { randomToken, sha256Hex } from "../util/crypto.ts";

export const SESSION_COOKIE = "auth_token";

/**
 * Starts a server-side session. The cookie carries a random token; only its hash is
 * stored, so a copy of the database cannot be replayed as a live session. Null when the
 * account no longer has the credential the sign-in verified (`proof`): a takeover or a new
 * password committed while the check ran, and the sign-in must not outlive it.
 */
export async function createSession(
  store: Store,
  accountId: string,
  ttlDays: number,
  proof: SessionProof,
  audit?: AuditNote,
): Promise<{ token: string; expiresAt: Date } | null> {
  const token = randomToken(32);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlDays * 86_400_000);
  const made = await store.sessions.insert(
    {
      id: crypto.randomUUID(),
      accountId,
      tokenHash: sha256Hex(token),
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    },
    proof,
    audit,
  );
  return made ? { token, expiresAt } : null;
}

/** The account id of a live session, or null (unknown, expired or ended). */
export async function resolveSession(store: Store, token: string | undefined): Promise<string | null> {
  if (!token || token.length > 200) return null;
  return store.sessions.accountIdByHash(sha256Hex(token), new Date().toISOString());
}

/** Ends the session; `audit` makes the entry of the ending for the account it belonged to. */
export async function endSession(
  store: Store,
  token: string | undefined,
  audit?: (accountId: string) => Promise<AuditNote | null>,
): Promise<AuditNote | null> {
  if (!token || token.length > 200) return null;
  const hash = sha256Hex(token);
  const accountId = audit && (await store.sessions.accountIdByHash(hash, new Date().toISOString()));
  const note = accountId ? await audit(accountId) : null;
  await store.sessions.deleteByHash(hash, note ?? undefined);
  return note;
}
