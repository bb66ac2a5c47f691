import { afterAll, beforeAll, expect, test } from "bun:test";
import { createAccount } from "../../../src/auth/accounts.ts";
import { EXPORT_PAGE } from "../../../src/auth/leave/export-stream.ts";
import { openSqliteStore } from "../../../src/store/sqlite/open.ts";
import type { Store } from "../../../src/store/types.ts";
import { type InProcessServer, startInProcess } from "../../helpers/in-process.ts";
import { Client } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

const DOCUMENTS = 2_500;
/** How many documents each read of the store returned, in order. */
const reads: number[] = [];
let srv: InProcessServer;
let owner: Client;

beforeAll(async () => {
  const store = openSqliteStore(":memory:");
  const account = await createAccount(store, "big@example.com", "correct horse battery", "researcher");
  const c = (await store.corpus.createCollection({ name: "library", ownerId: account.id, visibility: "private" }))!;
  for (let i = 0; i < DOCUMENTS; i += 500)
    await store.corpus.put(
      c.id,
      Array.from({ length: 500 }, (_, k) => ({
        docId: `doc-${String(i + k).padStart(5, "0")}.txt`,
        title: `Document ${i + k}`,
        url: null,
        path: null,
        format: "text",
        contentHash: `h${i + k}`,
        truncated: false,
        passages: [`Passage one of document ${i + k}.`, `Passage two of document ${i + k}.`],
      })),
    );
  // The store as the server sees it, every read of documents counted.
  const spied: Store = {
    ...store,
    corpus: {
      ...store.corpus,
      documents: async (cid, ids) => {
        const rows = await store.corpus.documents(cid, ids);
        reads.push(rows.length);
        return rows;
      },
    },
  };
  srv = startInProcess({ store: spied });
  owner = new Client(srv);
  expect(
    (await owner.req("POST", "/api/v1/auth/login", { email: "big@example.com", password: "correct horse battery" }))
      .status,
  ).toBe(200);
});
afterAll(() => srv.stop(100));

test("an export is read from the store a page at a time, as the client reads it: never the whole collection at once", async () => {
  const res = await owner.req("GET", "/api/v1/me/export");
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const chunks: Uint8Array[] = [];
  const first = await reader.read();
  chunks.push(first.value!);
  // The answer has begun while most of the collection is still unread.
  expect(reads.reduce((n, r) => n + r, 0)).toBeLessThan(DOCUMENTS / 2);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  expect(Math.max(...reads)).toBeLessThanOrEqual(EXPORT_PAGE);
  expect(reads.reduce((n, r) => n + r, 0)).toBe(DOCUMENTS);
  const doc = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const docs = doc.collections[0].documents;
  expect(docs).toHaveLength(DOCUMENTS);
  expect(docs[DOCUMENTS - 1]).toMatchObject({
    doc_id: "doc-02499.txt",
    text: "Passage one of document 2499.\n\nPassage two of document 2499.",
  });
});
