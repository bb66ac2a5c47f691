import { createHmac } from "node:crypto";
import type { AccountRow, AuditNote, Store } from "../../store/types.ts";
import { signingSecret } from "../secret.ts";

/**
 * What the trail names a deleted person by: an HMAC-SHA256 of the address under the server's
 * signing secret. The same person gets the same name in every row (an operator can follow what
 * they did), and the address cannot be read back from it nor tried against it without the secret.
 */
export async function pseudonymOf(store: Store, configuredSecret: string | undefined, email: string): Promise<string> {
  const secret = await signingSecret(store, configuredSecret);
  return `deleted:${createHmac("sha256", secret).update(email).digest("hex").slice(0, 24)}`;
}

/** Where the spooled files of uploads in flight are removed (src/collections/uploads/spool.ts). */
export interface SpoolFiles {
  remove(name: string): void;
}

/**
 * Deletes a person's account and everything keyed by it (AccountsTable.remove), then the spooled
 * files of its uploads in flight. `note` is the entry of the deletion (its action and client
 * address); it names the person by their pseudonym only. The entry as written, or null when the
 * account was already gone.
 */
export async function removeAccount(
  store: Store,
  spool: SpoolFiles,
  account: Pick<AccountRow, "id" | "email">,
  configuredSecret: string | undefined,
  note: AuditNote,
): Promise<AuditNote | null> {
  const pseudonym = await pseudonymOf(store, configuredSecret, account.email);
  const entry: AuditNote = {
    ...note,
    actorId: note.actor === "operator" ? null : pseudonym,
    actor: note.actor === "operator" ? "operator" : pseudonym,
    targetId: pseudonym,
    target: pseudonym,
  };
  const files = await store.accounts.remove(account.id, { email: account.email, pseudonym }, entry);
  if (!files) return null;
  for (const f of files) spool.remove(f);
  return entry;
}
