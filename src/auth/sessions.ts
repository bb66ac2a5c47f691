import type { SessionProof, Store } from "../store/types.ts";
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
  );
  return made ? { token, expiresAt } : null;
}

/** The account id of a live session, or null (unknown, expired or ended). */
export async function resolveSession(store: Store, token: string | undefined): Promise<string | null> {
  if (!token || token.length > 200) return null;
  return store.sessions.accountIdByHash(sha256Hex(token), new Date().toISOString());
}

export async function endSession(store: Store, token: string | undefined): Promise<void> {
  if (token) await store.sessions.deleteByHash(sha256Hex(token));
}
