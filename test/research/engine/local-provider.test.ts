import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { EnvelopeSchema } from "../../../src/contract/envelope.ts";
import { type ChatServer, isPlannerCall, startChatServer } from "../../fixtures/chat-server.ts";
import { type PageServer, startPageServer } from "../../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";
import { query } from "../../helpers/server.ts";
import {
  BATTERY_NOTES,
  type CollectionsServer,
  fillCollection,
  startCollectionsServer,
} from "../../runs/collections-server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/**
 * The `local` provider among the others (README "How a run works", LOCAL_SEARCH): it joins
 * every run while a collection holds documents, its hits are fused with the web's, it is
 * the only source with LOCAL_SEARCH=only and none with off, and a model writer cites it like
 * any other source.
 */

let pages: PageServer, search: SearchFixtures, chat: ChatServer;
beforeAll(() => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  search.setWeb([
    {
      title: "CRISPR base editing explained",
      url: "/article/base-editing",
      snippet: "Base editors change single DNA letters.",
    },
    { title: "Base editing: a review", url: "/article/review", snippet: "A review of base editors." },
  ]);
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? {
          text: '{"kind":"general","language":"en","queries":["solid-state battery limits","solid electrolyte dendrites"]}',
        }
      : { text: "Dendrites short the cells [S1]; the interface resistance is high [S2]." },
  );
});
afterAll(() => {
  pages.stop();
  search.stop();
  chat.stop();
});

const BASE_EDITING_NOTE = {
  id: "lab/base-editing-protocol.md",
  title: "Our base editing protocol",
  text: "Base editing in our lab uses an adenine base editor delivered as mRNA. The base editor changes one DNA letter inside a window of about five nucleotides without cutting both strands, so base editing makes fewer indels than Cas9 nuclease editing.",
};

/** A server whose collections hold the battery notes (and, when asked, the base editing protocol). */
async function withNotes(env: Record<string, string>, extra = false): Promise<CollectionsServer> {
  const t = await startCollectionsServer({ FETCH_ALLOW_PRIVATE: "true", ...env });
  await fillCollection(t.store, "notes", extra ? [...BATTERY_NOTES, BASE_EDITING_NOTE] : BATTERY_NOTES);
  search.requests.length = 0;
  return t;
}

async function ask(t: CollectionsServer, question: string): Promise<any> {
  return await (await query(t.srv.url, t.key, { query: question })).json();
}

describe("LOCAL_SEARCH", () => {
  test("off: the collections are not searched; with no other provider reachable the run is search_failed", async () => {
    const t = await withNotes({ LOCAL_SEARCH: "off" });
    try {
      const env = await ask(t, "What limits solid-state batteries?");
      expect(env.status).toBe("error");
      expect(env.errors[0].code).toBe("search_failed");
      expect(env.errors[0].message).toContain("searxng");
      expect(env.sources).toEqual([]);
    } finally {
      await t.stop();
    }
  });

  test("only: web and academic providers are configured but never called; the answer cites the collections", async () => {
    const t = await withNotes(
      {
        LOCAL_SEARCH: "only",
        SEARXNG_URL: search.urls.searxng,
        ACADEMIC_PROVIDERS: "openalex",
        OPENALEX_URL: search.urls.openalex,
      },
      true,
    );
    try {
      const env = await ask(t, "How does CRISPR base editing work?");
      expect(env.status).toBe("ok");
      expect(env.sources.map((s: any) => s.type)).toEqual(env.sources.map(() => "local"));
      expect(env.sources[0].doc_id).toBe(BASE_EDITING_NOTE.id);
      expect(search.requests).toEqual([]);
      expect(pages.hits("/article/base-editing")).toBe(0);
    } finally {
      await t.stop();
    }
  });

  test("only with empty collections: search_unavailable saying how to add documents", async () => {
    const t = await startCollectionsServer({ LOCAL_SEARCH: "only" });
    try {
      const env = await ask(t, "What limits solid-state batteries?");
      expect(env.errors[0].code).toBe("search_unavailable");
      expect(env.errors[0].message).toContain("corpus add");
    } finally {
      await t.stop();
    }
  });
});

describe("no_sources says what to do", () => {
  test("collections alone that hold nothing on the question: other words, or a web provider", async () => {
    const t = await withNotes({ SEARXNG_URL: "" });
    try {
      const env = await ask(t, "zebra marmalade quorvex");
      expect(env.errors[0].code).toBe("no_sources");
      expect(env.errors[0].message).toContain("What to do: ask it in other words");
      expect(env.errors[0].message).toContain("SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY");
    } finally {
      await t.stop();
    }
  });
});

describe("local beside the other providers", () => {
  test("a web fixture and a collection: both kinds are fused, ranked and cited in one answer", async () => {
    const t = await withNotes({ SEARXNG_URL: search.urls.searxng }, true);
    try {
      // Words every source holds: the extractive writer quotes only sources on the question, and the note never says "CRISPR".
      const env = await ask(t, "How does base editing work?");
      expect(env.status).toBe("ok");
      expect(Value.Check(EnvelopeSchema, env)).toBe(true);
      const types = new Set(env.sources.map((s: any) => s.type));
      expect(types).toEqual(new Set(["web", "local"]));
      const local = env.sources.find((s: any) => s.type === "local");
      expect(local).toMatchObject({
        provider: "local",
        collection: "notes",
        doc_id: BASE_EDITING_NOTE.id,
        url: "local:notes/lab/base-editing-protocol.md",
      });
      for (const s of env.sources.filter((s: any) => s.type === "web")) expect(s.collection).toBeUndefined();
      expect(search.requests.some((r) => r.provider === "searxng")).toBe(true);
    } finally {
      await t.stop();
    }
  });

  test("every web provider failing while the collections answer: the run answers from them", async () => {
    search.setMode("searxng", "500");
    const t = await withNotes({ SEARXNG_URL: search.urls.searxng });
    try {
      const env = await ask(t, "What limits solid-state batteries?");
      expect(env.status).toBe("ok");
      expect(env.sources.every((s: any) => s.type === "local")).toBe(true);
      expect(search.requests.some((r) => r.provider === "searxng")).toBe(true);
    } finally {
      search.setMode("searxng", "ok");
      await t.stop();
    }
  });

  test("collections filled while the server runs join the next run: no restart", async () => {
    const t = await startCollectionsServer();
    try {
      const before = await ask(t, "What limits solid-state batteries?");
      expect(before.errors[0].code).toBe("search_failed");
      await fillCollection(t.store, "notes", BATTERY_NOTES);
      const after = await ask(t, "What limits solid-state batteries?");
      expect(after.status).toBe("ok");
      expect(after.sources[0].type).toBe("local");
    } finally {
      await t.stop();
    }
  });

  test("no web or academic provider configured at all: the collections alone answer", async () => {
    const t = await withNotes({ SEARXNG_URL: "" });
    try {
      const env = await ask(t, "What limits solid-state batteries?");
      expect(env.status).toBe("ok");
      expect(env.sources.length).toBeGreaterThan(0);
    } finally {
      await t.stop();
    }
  });
});

describe("a model writer (OpenAI-compatible fixture)", () => {
  test("reads the local passages, cites local sources; the answer is the model's", async () => {
    chat.requests.length = 0;
    const t = await withNotes({ OPENAI_BASE_URL: chat.openaiBase, LLM_MODEL: "writer", LLM_FAST_MODEL: "planner" });
    try {
      const env = await ask(t, "What limits solid-state batteries?");
      expect(env.status).toBe("ok");
      expect(env.writer).toBe("llm");
      expect(env.answer).toBe("Dendrites short the cells [S1]; the interface resistance is high [S2].");
      expect(env.sources).toHaveLength(2);
      for (const s of env.sources) expect(s).toMatchObject({ type: "local", provider: "local", collection: "notes" });
      const writerCall = chat.requests.findLast((r) => !isPlannerCall(r.body))!;
      const prompt = writerCall.body.messages.map((m) => m.content).join("\n");
      expect(prompt).toContain("lithium filaments crossed grain boundaries");
      expect(prompt).toContain("local:notes/");
    } finally {
      await t.stop();
    }
  });
});
