import type { Store } from "../store/types.ts";
import { randomToken, sha256Hex } from "../util/crypto.ts";

export const SESSION_COOKIE = "auth_token";

/**
 * Starts a server-side session. The cookie carries a random token; only its hash is
 * stored, so a copy of the database cannot be replayed as a live session.
 */
export async function createSession(
  store: Store,
  accountId: string,
  ttlDays: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlDays * 86_400_000);
  await store.sessions.insert({
    id: crypto.randomUUID(),
    accountId,
    tokenHash: sha256Hex(token),
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  });
  return { token, expiresAt };
}

/** The account id of a live session, or null (unknown, expired or ended). */
export async function resolveSession(store: Store, token: string | undefined): Promise<string | null> {
  if (!token || token.length > 200) return null;
  return store.sessions.accountIdByHash(sha256Hex(token), new Date().toISOString());
}

export async function endSession(store: Store, token: string | undefined): Promise<void> {
  if (token) await store.sessions.deleteByHash(sha256Hex(token));
}
