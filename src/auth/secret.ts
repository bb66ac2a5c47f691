import type { Awaitable, Store } from "../store/types.ts";
import { randomToken } from "../util/crypto.ts";

/**
 * The server's signing secret: SESSION_SECRET when set, else one generated on first
 * start and kept in the database so restarts don't invalidate what was signed.
 */
export function signingSecret(store: Store, configured: string | undefined): Awaitable<string> {
  if (configured) return configured;
  return store.settings.getOrCreate("session_secret", () => randomToken(32));
}
