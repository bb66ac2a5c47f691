import type { SQL } from "bun";

/**
 * Holds the account's row, shared, for the rest of the transaction. Threat: a write checked
 * against a credential (a password, an identity, a session) racing a takeover that revokes it.
 * The takeover updates the account's row before it ends sessions and keys
 * (IdentitiesTable.link), so while we hold the row it waits and then sees what we wrote; if it
 * held the row first, we wait, and the next statement's snapshot sees it committed.
 */
export async function lockAccount(tx: SQL, accountId: string): Promise<void> {
  await tx`SELECT 1 FROM accounts WHERE id = ${accountId} FOR SHARE`;
}
