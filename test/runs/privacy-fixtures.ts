import { expect } from "bun:test";
import type { CollectionSummary, Store, Visibility } from "../../src/store/types.ts";
import { Client } from "../helpers/server.ts";
import {
  BATTERY_NOTES,
  type CollectionsServer,
  type NoteDoc,
  noteInputs,
  startCollectionsServer,
} from "./collections-server.ts";

/**
 * Account A's documents, written so that anything of them that reaches a page is caught:
 * every title, sentence, doc id and the collection's name carry "Quorvex" or "zanthoxyl",
 * words found nowhere else. They answer the battery question better than the shared notes,
 * so a filter that let them through would have them cited.
 */
export const QUORVEX_COLLECTION = "quorvex-lab";
export const QUORVEX_NOTES: NoteDoc[] = [
  {
    id: "quorvex/teardown.md",
    title: "Quorvex teardown: what limits solid-state batteries",
    text: "Quorvex solid-state batteries are limited by zanthoxyl dendrites that grow through the ceramic electrolyte at high current.\n\nThe Quorvex cells shorted after 12 cycles once zanthoxyl filaments crossed the separator of the solid-state batteries.",
  },
  {
    id: "quorvex/interface.md",
    title: "Quorvex interface resistance",
    text: "Quorvex measured a zanthoxyl interface resistance that limits solid-state batteries more than any dendrite does.\n\nThe Quorvex coating of zanthoxyl niobate lowered the resistance of the solid-state batteries in our tests.",
  },
];

/** What of A's documents a text gives away (and the record's own collection ids, never sent): empty when nothing. */
export function leaksIn(raw: string): string[] {
  return raw.match(/quorvex|zanthoxyl|collection_id/gi) ?? [];
}

/** Asserts that `raw` (a response's bytes as text) gives nothing of A's away; `where` names it on failure. */
export function expectNoLeak(raw: string, where: string): void {
  expect({ where, leaks: leaksIn(raw) }).toEqual({ where, leaks: [] });
}

export interface Account {
  c: Client;
  id: string;
  email: string;
  key: string;
}

/** A signed-up account on the server at `url`, with its session and one key. */
export async function signUp(url: string, email: string): Promise<Account> {
  const c = new Client(url);
  const { account } = await c.signup(email);
  return { c, id: account.id, email, key: (await c.createKey()).key };
}

/** A collection of `ownerId` (null: the operator's) holding `docs`. */
export async function ownedCollection(
  store: Store,
  ownerId: string | null,
  name: string,
  visibility: Visibility,
  docs: NoteDoc[],
): Promise<CollectionSummary> {
  const c = await store.corpus.createCollection({ name, ownerId, visibility });
  if (!c) throw new Error(`${name} exists`);
  await store.corpus.put(c.id, noteInputs(docs));
  return c;
}

/**
 * A server searching its collections only, with Alice and Bob signed up, the operator's shared
 * handbook, and Alice's Quorvex notes (private unless said): the team every privacy test asks in;
 * `env` adds to the server's configuration (a model to write with).
 */
export async function aliceAndBob(quorvex: Visibility = "private", env: Record<string, string> = {}) {
  const t: CollectionsServer = await startCollectionsServer({ LOCAL_SEARCH: "only", ...env });
  const a = await signUp(t.srv.url, "alice@team.example");
  const b = await signUp(t.srv.url, "bob@team.example");
  await ownedCollection(t.store, null, "handbook", "shared", BATTERY_NOTES);
  const notes = await ownedCollection(t.store, a.id, QUORVEX_COLLECTION, quorvex, QUORVEX_NOTES);
  return { t, a, b, quorvex: notes };
}
