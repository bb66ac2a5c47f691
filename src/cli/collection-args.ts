import { normalizeEmail } from "../auth/email.ts";
import type { CollectionSummary, Store } from "../store/types.ts";
import { UsageError } from "./command.ts";

/** The account id of `--owner EMAIL`, or a usage error naming the address no account has. */
export async function ownerIdOf(store: Store, email: string): Promise<string> {
  const account = await store.accounts.byEmail(normalizeEmail(email));
  if (!account) throw new UsageError(`no account has the email ${email}`);
  return account.id;
}

/**
 * The operator's collection called NAME: the one of `--owner EMAIL` when given; else the one
 * with no owner, else the only one of that name. Several owners with that name and no
 * --owner: a usage error listing them. Null: none of that name.
 */
export async function operatorCollection(
  store: Store,
  name: string,
  ownerEmail: string | undefined,
): Promise<CollectionSummary | null> {
  if (ownerEmail !== undefined) return await store.corpus.findCollection(await ownerIdOf(store, ownerEmail), name);
  const unowned = await store.corpus.findCollection(null, name);
  if (unowned) return unowned;
  const named = (await store.corpus.collections("all")).filter((c) => c.name === name);
  if (named.length > 1)
    throw new UsageError(
      `several accounts have a collection named ${name} (${named.map((c) => c.owner).join(", ")}): say which with --owner EMAIL`,
    );
  return named[0] ?? null;
}
