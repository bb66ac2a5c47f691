import type { CollectionSummary, Store } from "../store/types.ts";
import { collectionLabel, collectionsNamed, operatorCollection, ownerIdOf, readers } from "./collection-args.ts";
import { UsageError } from "./command.ts";

/**
 * The collection to import into. An existing one is found by name and --owner; the flags, when
 * given, must agree with how it is shared: `--owner` alone means private, `--shared` shared.
 * Otherwise nothing is imported and share/unshare are named: an import never changes who reads
 * a collection (docs/decisions/0074-corpus-add-never-changes-visibility.md). A new collection
 * needs one of the two flags; `made` says it was made here.
 */
export async function importTarget(
  store: Store,
  name: string,
  owner: string | undefined,
  shared: boolean,
): Promise<{ collection: CollectionSummary; made: boolean }> {
  // --shared alone names the collection with no owner; no flag at all, whichever there is of that name.
  const found =
    shared && !owner ? await store.corpus.findCollection(null, name) : await operatorCollection(store, name, owner);
  const wanted = shared ? "shared" : owner ? "private" : undefined;
  if (found && wanted && found.visibility !== wanted) {
    const fix =
      found.visibility === "private"
        ? `make it shared first with: research-query corpus share ${found.name}${found.owner ? ` --owner ${found.owner}` : ""}`
        : `add --shared to add to it as it is, or make it private first with: research-query corpus unshare ${found.name} --owner ${found.owner ?? "EMAIL"}`;
    throw new UsageError(
      `${collectionLabel(found)} is ${readers(found)}, and an import does not change that; nothing was imported: ${fix}`,
    );
  }
  if (found) return { collection: found, made: false };
  if (shared && !owner) await refuseSecondOfName(store, name);
  if (!wanted)
    throw new UsageError(
      `${name} is a new collection: say whose it is with --owner EMAIL (private to that account) or --shared (every account reads it)`,
    );
  const made = await store.corpus.createCollection({
    name,
    ownerId: owner ? await ownerIdOf(store, owner) : null,
    visibility: wanted,
  });
  if (!made) throw new UsageError(`${name} was just made by another import: run the command again`);
  process.stderr.write(`new collection ${collectionLabel(made)}: ${readers(made)}\n`);
  return { collection: made, made: true };
}

/**
 * `--shared` alone where no collection without an owner has that name but an account's does:
 * the operator means that one, and a new one with no owner would be a second copy every account
 * reads beside it. Refused, naming each and the command that shares or adds to it
 * (docs/decisions/0147-one-name-several-collections.md).
 */
async function refuseSecondOfName(store: Store, name: string): Promise<void> {
  const others = await collectionsNamed(store, name);
  if (!others.length) return;
  const fix = others.map((c) =>
    c.visibility === "private"
      ? `share ${collectionLabel(c)} with: research-query corpus share ${name} --owner ${c.owner}, then add to it with --owner ${c.owner} --shared`
      : `add to ${collectionLabel(c)} with --owner ${c.owner} --shared`,
  );
  throw new UsageError(
    `${others.map((c) => `${collectionLabel(c)} is ${readers(c)}`).join("; ")}: --shared alone would make a second ${name} with no owner, which every account reads; nothing was imported. ${fix.join("; ")}; or choose another name`,
  );
}
