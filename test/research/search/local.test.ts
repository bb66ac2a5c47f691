import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { loadConfig } from "../../../src/config/load.ts";
import { SourceSchema } from "../../../src/contract/envelope.ts";
import { AppError } from "../../../src/contract/errors.ts";
import { createLocal, localUrl } from "../../../src/research/search/local.ts";
import { mergeAndRank } from "../../../src/research/search/merge.ts";
import { buildSearchProviders, providersForRun } from "../../../src/research/search/registry.ts";
import { searchAll } from "../../../src/research/search/run-search.ts";
import type { SearchHit } from "../../../src/research/search/types.ts";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/open.ts";
import { putInto } from "../../corpus/collections-helpers.ts";
import { BATTERY_NOTES, closedPort, fillCollection } from "../../runs/collections-server.ts";

let store: SqliteStore, empty: SqliteStore;
beforeAll(async () => {
  store = openSqliteStore(":memory:");
  empty = openSqliteStore(":memory:");
  await fillCollection(store, "notes", BATTERY_NOTES);
});
afterAll(() => {
  store.close();
  empty.close();
});

const cfg = (env: Record<string, string>) => loadConfig({ ACADEMIC_PROVIDERS: "none", ...env }, "/nonexistent");
const signal = () => AbortSignal.timeout(10_000);

describe("local: references", () => {
  test("each segment percent-encoded: a valid URI of the contract that decodes back to collection and doc_id", () => {
    for (const [collection, docId] of [
      ["notes", "reports/q3 review.md"],
      ["team docs", "a#b?c%d/é/日本.txt"],
      ["x", "/leading/slash"],
    ] as const) {
      const url = localUrl(collection, docId);
      expect(url).not.toMatch(/\s/);
      const src = {
        id: "S1",
        title: "t",
        url,
        type: "local",
        provider: "local",
        snippet: "",
        collection,
        doc_id: docId,
      };
      expect(Value.Check(SourceSchema, src)).toBe(true);
      const rest = url.slice("local:".length);
      const [c, ...d] = rest.split("/");
      expect([decodeURIComponent(c!), d.map(decodeURIComponent).join("/")]).toEqual([collection, docId]);
      expect(new URL(url).protocol).toBe("local:");
    }
  });
});

/** A reader of the shared collections only (an account with no collection of its own). */
const shared = { accounts: [] };

describe("local among the providers", () => {
  test("built unless LOCAL_SEARCH=off; only builds nothing else; in every kind of question", async () => {
    const web = { SEARXNG_URL: "http://127.0.0.1:9" };
    expect((await providersForRun(buildSearchProviders(cfg(web), {}, store), shared)).local?.name).toBe("local");
    expect(buildSearchProviders(cfg({ ...web, LOCAL_SEARCH: "off" }), {}, store).local).toBeUndefined();
    expect(buildSearchProviders(cfg(web)).local).toBeUndefined();
    const only = await providersForRun(
      buildSearchProviders(cfg({ ...web, ACADEMIC_PROVIDERS: "openalex", LOCAL_SEARCH: "only" }), {}, store),
      shared,
    );
    expect([only.web, only.academic, only.local?.name]).toEqual([[], [], "local"]);
    for (const kind of ["academic", "general", "news", "mixed"] as const) {
      const r = await searchAll(["solid-state batteries"], kind, only, { signal: signal() });
      expect(r.attempts.map((a) => a.provider)).toEqual(["local"]);
      expect(r.lists[0]!.every((h) => h.type === "local" && h.local?.collection === "notes")).toBe(true);
    }
  });

  test("per run: empty collections drop local (auto) or fail at once (only)", async () => {
    const auto = buildSearchProviders(cfg({}), {}, empty);
    expect((await providersForRun(auto, shared)).local).toBeUndefined();
    const only = buildSearchProviders(cfg({ LOCAL_SEARCH: "only" }), {}, empty);
    const e = await providersForRun(only, shared).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("search_failed");
    expect((await providersForRun(buildSearchProviders(cfg({}), {}, store), shared)).local?.name).toBe("local");
  });

  test("web failing: local hits carry the run; local finding nothing leaves it search_failed, not no_sources", async () => {
    const p = await providersForRun(
      buildSearchProviders(cfg({ SEARXNG_URL: `http://127.0.0.1:${closedPort()}` }), {}, store),
      shared,
    );
    const found = await searchAll(["dendrites ceramic electrolyte"], "general", p, { signal: signal() });
    expect(found.attempts.find((a) => a.provider === "searxng")!.ok).toBe(false);
    expect(found.lists.flat().length).toBeGreaterThan(0);
    const none = await searchAll(["zyxwvut"], "general", p, { signal: signal() }).catch((x: unknown) => x);
    expect((none as AppError).code).toBe("search_failed");
    expect((none as AppError).message).toContain("searxng");
    expect((none as AppError).message).not.toContain("local");
  });

  test("a web hit with a local document's URL merges into the local one", () => {
    const url = "https://wiki.example.org/separators";
    const web: SearchHit = { url, title: "Separators", snippet: "web", provider: "searxng", type: "web" };
    const local: SearchHit = {
      url,
      title: "Separators",
      snippet: "local",
      provider: "local",
      type: "local",
      local: { collection: "wiki", collectionId: 1, owner: null, docId: "separators", documentId: 1 },
    };
    const [merged, ...rest] = mergeAndRank([[web], [local]], "separators");
    expect(rest).toEqual([]);
    expect(merged).toMatchObject({ type: "local", provider: "local", local: { collection: "wiki" } });
    expect(merged!.providers.sort()).toEqual(["local", "searxng"]);
  });
});

describe("local hits", () => {
  test("the snippet is the best passage without the heading the document's title came from", async () => {
    const s = openSqliteStore(":memory:");
    await putInto(s, "notes", [
      {
        docId: "q3.md",
        title: "Q3 review: solid-state cells",
        url: null,
        path: "q3.md",
        format: "markdown",
        contentHash: "h",
        truncated: false,
        passages: ["Q3 review: solid-state cells\nDendrites grow through the ceramic electrolyte at high current."],
      },
    ]);
    const local = (await createLocal({ store: s }).forReader(shared))!;
    const [hit] = await local.search("dendrites electrolyte", { signal: signal(), limit: 5 });
    expect(hit!.snippet).toBe("Dendrites grow through the ceramic electrolyte at high current.");
    s.close();
  });
});
