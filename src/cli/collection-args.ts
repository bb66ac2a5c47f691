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
  const named = (await store.corpus.collections("all")).filter((c) => c.name === name);
  if (named.length > 1)
    throw new UsageError(
      `several accounts have a collection named ${name} (${named.map((c) => c.owner).join(", ")}): say which with --owner EMAIL`,
    );
  return named[0] ?? null;
}
