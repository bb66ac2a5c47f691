import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { importPaths } from "../../src/corpus/import/import-paths.ts";
import type { Store } from "../../src/store/types.ts";
import { Client, type Target } from "../helpers/server.ts";

/** An account of the test server, signed in: its client, email and id. */
export interface Member {
  c: Client;
  email: string;
  id: string;
}

/** A new account on `url`, signed in. */
export async function member(url: Target, tag = "m"): Promise<Member> {
  const c = new Client(url);
  const { email, account } = await c.signup(`${tag}${crypto.randomUUID().slice(0, 8)}@example.com`);
  return { c, email, id: account.id };
}

/** The same account's session on another instance of one database. */
export const elsewhere = (m: Member, url: string): Member => ({
  ...m,
  c: Object.assign(new Client(url), { cookie: m.c.cookie }),
});

/** The path of a collection, or of one of its documents (each segment percent-encoded: a doc_id may hold "/"). */
export function at(name: string, docId?: string, query = ""): string {
  const base = `/api/console/collections/${encodeURIComponent(name)}`;
  return (docId === undefined ? base : `${base}/documents/${encodeURIComponent(docId)}`) + query;
}

/** Status and JSON body of one call. */
export async function call(
  m: Member | Client,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; text: string }> {
  const c = m instanceof Client ? m : m.c;
  const res = await c.req(method, path, body, headers);
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

/** The error code of an answer's {errors: [...]} body. */
export const codeOf = (r: { body: any }): string | undefined => r.body?.errors?.[0]?.code;

/**
 * Imports files (path → text) into the collection `name` of account `ownerId`, as `corpus add`
 * does from a folder: each doc_id is the file's path relative to it.
 */
export async function fill(store: Store, ownerId: string | null, name: string, files: Record<string, string>) {
  const c = await store.corpus.findCollection(ownerId, name);
  if (!c) throw new Error(`no collection ${name} of ${ownerId}`);
  const dir = mkdtempSync(join(tmpdir(), "rq-collection-"));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const summary = await importPaths(store, [dir], { collection: { id: c.id, name } });
    if (summary.added + summary.replaced !== Object.keys(files).length)
      throw new Error(`import of ${name}: ${JSON.stringify(summary)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A team's notes: one with a "/" and a space in its doc_id. */
export const HR_NOTES: Record<string, string> = {
  "reviews/q3 salaries.md":
    "# Q3 salary review\n\nThe salary bands for engineers rise by four percent from October.\n\nTwo promotions are pending approval.",
  "hiring.md": "# Hiring plan\n\nWe hire two data engineers in the first quarter.",
};

export const HANDBOOK: Record<string, string> = {
  "welcome.md": "# Welcome\n\nThe office opens at eight. Badges are at the front desk.",
};
