import { accountIdsByEmail } from "../auth/accounts.ts";
import type { CollectionSummary, Store } from "../store/types.ts";
import { type CommandInput, UsageError } from "./command.ts";

/** `--owner EMAIL` of a command acting on one collection (given once). */
export const ownerOption = (input: CommandInput): string | undefined =>
  typeof input.options.owner === "string" ? input.options.owner : undefined;

/** Every `--owner EMAIL` of a command that reads collections (repeatable), without repeats. */
export function ownerOptions(input: CommandInput): string[] {
  const v = input.options.owner;
  return [...new Set(typeof v === "string" ? [v] : Array.isArray(v) ? v : [])];
}

/** The usage error for addresses no account has: every one of them named. */
export const unknownEmails = (emails: readonly string[]) =>
  new UsageError(`no account has the email ${emails.join(", ")}`);

/** The account id of `--owner EMAIL`, or a usage error naming the address no account has. */
export async function ownerIdOf(store: Store, email: string): Promise<string> {
  return (await ownerIdsOf(store, [email]))[0]!;
}

/** The account ids of several `--owner EMAIL`, or one usage error naming every address no account has. */
export async function ownerIdsOf(store: Store, emails: readonly string[]): Promise<string[]> {
  const { ids, unknown } = await accountIdsByEmail(store, emails);
  if (unknown.length) throw unknownEmails(unknown);
  return ids;
}

/** How a collection is named to the operator: `notes` with no owner, `notes (alice@example.com)`. */
export const collectionLabel = (c: Pick<CollectionSummary, "name" | "owner">) =>
  c.owner ? `${c.name} (${c.owner})` : c.name;

/** Who reads a collection, in words. */
export const readers = (c: Pick<CollectionSummary, "visibility" | "owner">) =>
  c.visibility === "shared" ? "shared (every account reads it)" : `private to ${c.owner ?? "no account"}`;

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
  const named = await collectionsNamed(store, name);
  if (named.length > 1)
    throw new UsageError(
      `several accounts have a collection named ${name} (${named.map((c) => c.owner).join(", ")}): say which with --owner EMAIL`,
    );
  return named[0] ?? null;
}

/** Every collection called `name`, whoever owns it. */
export const collectionsNamed = async (store: Store, name: string) =>
  (await store.corpus.collections("all")).filter((c) => c.name === name);

/** `notes (alice@example.com, private), notes (no owner, shared)`: each with the flag that picks it. */
export const listCollections = (cs: readonly CollectionSummary[]) =>
  cs
    .map((c) => `${c.name} (${c.owner ?? "no owner"}, ${c.visibility}: ${c.owner ? `--owner ${c.owner}` : "--shared"})`)
    .join(", ");

/**
 * The one collection a command that destroys acts on, never a guess: that of `--owner EMAIL`,
 * the one with no owner for `--shared`, else the only one of that name. Several and neither
 * flag: a usage error listing them, nothing done
 * (docs/decisions/0147-one-name-several-collections.md). Null: none of that name.
 */
export async function exactCollection(
  store: Store,
  name: string,
  ownerEmail: string | undefined,
  unowned: boolean,
): Promise<CollectionSummary | null> {
  if (ownerEmail !== undefined) return await store.corpus.findCollection(await ownerIdOf(store, ownerEmail), name);
  if (unowned) return await store.corpus.findCollection(null, name);
  const named = await collectionsNamed(store, name);
  if (named.length > 1)
    throw new UsageError(
      `${named.length} collections are named ${name}: ${listCollections(named)}; say which with --owner EMAIL, or --shared for the one with no owner (nothing was done)`,
    );
  return named[0] ?? null;
}
