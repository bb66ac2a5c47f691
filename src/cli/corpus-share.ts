import { openSignup } from "../auth/signup-limits.ts";
import type { CollectionSummary, Store } from "../store/types.ts";
import { collectionLabel, operatorCollection, ownerIdOf, ownerOption, readers } from "./collection-args.ts";
import { type CommandInput, EXIT } from "./command.ts";
import { collectionJson } from "./corpus-list.ts";
import { withStore } from "./with-store.ts";

const missing = (name: string, whose: string) => {
  process.stderr.write(`no collection named ${name}${whose}\n`);
  return EXIT.failure;
};

/** The collection as it now is: JSON with --json, else one line of who reads it. */
async function report(store: Store, input: CommandInput, id: number, before: string): Promise<number> {
  const c = (await store.corpus.collections("all")).find((x) => x.id === id);
  if (!c) return missing(input.args[0]!, " (removed meanwhile)");
  console.log(
    input.options.json
      ? JSON.stringify({ collection: collectionJson(c) })
      : `${collectionLabel(c)} is ${before}${readers(c)}`,
  );
  const anyone = c.visibility === "shared" ? openSignup(input.cfg) : null;
  if (anyone) process.stderr.write(`note: sign-up is open (SIGNUP=open): ${anyone} reads it too\n`);
  return EXIT.ok;
}

/** `corpus share NAME [--owner EMAIL] [--json]`: every account reads the collection. Sharing it again is not an error. */
export const corpusShare = (input: CommandInput) =>
  withStore(input.cfg, async (store) => {
    const name = input.args[0]!;
    const owner = ownerOption(input);
    const c = await operatorCollection(store, name, owner);
    if (!c) return missing(name, owner ? ` of ${owner}` : "");
    if (c.visibility === "shared") return await report(store, input, c.id, "already ");
    if ((await store.corpus.updateCollection(c.id, { visibility: "shared" })) !== "ok") return missing(name, "");
    return await report(store, input, c.id, "now ");
  });

/**
 * `corpus unshare NAME --owner EMAIL [--json]`: the collection becomes private to that account —
 * its own collection of that name, else the one with no owner, which then becomes its own.
 * Refused (exit 1, nothing changed) when the account already has a private collection of that
 * name: one owner cannot have two (docs/decisions/0075-unshare-hands-over-unowned-collections.md).
 */
export const corpusUnshare = (input: CommandInput) =>
  withStore(input.cfg, async (store) => {
    const name = input.args[0]!;
    const email = ownerOption(input)!; // a required flag: checked before the command runs
    const ownerId = await ownerIdOf(store, email);
    const own = await store.corpus.findCollection(ownerId, name);
    const unowned = await store.corpus.findCollection(null, name);
    if (own && own.visibility === "shared") return await makePrivate(store, input, own, {}, unowned, email);
    if (!unowned) return own ? await report(store, input, own.id, "already ") : await notFound(store, name, email);
    if (own) {
      process.stderr.write(
        `${collectionLabel(own)} is already private, and ${name} with no owner cannot become ${email}'s too (one name per owner); nothing changed: remove or rename one of them first\n`,
      );
      return EXIT.failure;
    }
    return await makePrivate(store, input, unowned, { ownerId }, null, email);
  });

async function makePrivate(
  store: Store,
  input: CommandInput,
  c: CollectionSummary,
  change: { ownerId?: string },
  stillShared: CollectionSummary | null,
  email: string,
): Promise<number> {
  const r = await store.corpus.updateCollection(c.id, { ...change, visibility: "private" });
  if (r === "missing") return missing(c.name, "");
  if (r === "taken") {
    process.stderr.write(
      `${email} has just got a collection named ${c.name}: nothing changed, run the command again\n`,
    );
    return EXIT.failure;
  }
  if (stillShared?.visibility === "shared")
    process.stderr.write(`note: ${collectionLabel(stillShared)} with no owner is still shared\n`);
  return await report(store, input, c.id, "now ");
}

/** No collection of that name for that account or with no owner; other owners' are named, so the fix is clear. */
async function notFound(store: Store, name: string, email: string): Promise<number> {
  const others = (await store.corpus.collections("all")).filter((c) => c.name === name).map((c) => c.owner);
  const has = others.length > 1 ? "each have one" : "has one";
  return missing(name, ` of ${email} or with no owner${others.length ? ` (${others.join(", ")} ${has})` : ""}`);
}
