import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildEngine } from "../../../src/research/build-engine.ts";
import { openSqliteStore } from "../../../src/store/sqlite/open.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { startPageServer } from "../../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { readSse } from "../../helpers/sse.ts";
import { BATTERY_NOTES, closedPort, FAST, fillCollection } from "../collections-server.ts";

/**
 * A server that can search nothing — no web provider, the academic databases at closed ports
 * (an offline box), no collection holding documents — refuses a question before accepting it:
 * search_unavailable, 503 with Retry-After, naming what to configure, and the month's allowance
 * untouched on every endpoint (docs/decisions/0142-refuse-before-acceptance-when-nothing-can-search.md).
 */

let fx: SearchFixtures;
const pages = startPageServer();
beforeAll(() => {
  fx = startSearchFixtures(pages.base);
});
afterAll(() => {
  fx.stop();
  pages.stop();
});

/** The real engine with the databases at `ports` (nothing listening unless a test starts something there). */
function offlineServer(ports: { openalex: number; arxiv: number; crossref: number }, env: Record<string, string> = {}) {
  const store = openSqliteStore(":memory:");
  const srv = startTestServer({
    env: {
      DEFAULT_PLAN: "free",
      OPENALEX_URL: `http://127.0.0.1:${ports.openalex}/openalex`,
      ARXIV_URL: `http://127.0.0.1:${ports.arxiv}/arxiv`,
      CROSSREF_URL: `http://127.0.0.1:${ports.crossref}/crossref`,
      ACADEMIC_PROVIDERS: "openalex,arxiv,crossref",
      LOG_LEVEL: "silent",
      ...env,
    },
    store,
    logger: createLogger("silent"),
    engine: (config, logger) => buildEngine(config, logger, undefined, { ...FAST, academicRecheckMs: 0 }, store),
  });
  return { srv, store };
}

const QUESTION = { query: "What limits solid-state batteries?" };

describe("nothing can search: refused before acceptance, never charged", () => {
  test("four questions on a free plan (3 runs) over JSON, the stream and the web client: 503 search_unavailable, 0 runs used", async () => {
    const { srv } = offlineServer({ openalex: closedPort(), arxiv: closedPort(), crossref: closedPort() });
    try {
      const { c, key } = await keyedClient(srv.url);
      const answers = [
        await query(srv.url, key, QUESTION),
        await query(srv.url, key, QUESTION, {}, "/api/query/stream"),
        await query(srv.url, key, QUESTION),
        await c.req("POST", "/api/v1/research/stream", QUESTION, { origin: srv.url }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        const env = (await res.json()) as any;
        expect(env).toMatchObject({ status: "error", answer: null, sources: [] });
        expect(env.errors[0].code).toBe("search_unavailable");
        const msg: string = env.errors[0].message;
        // What is missing and what adds it: a web provider, the network, documents.
        for (const fix of ["SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY", "HTTPS_PROXY", "corpus add"])
          expect(msg).toContain(fix);
        expect(msg).toContain("openalex:");
        expect(msg).toContain("nothing was charged");
      }
      expect(await c.used()).toBe(0);
      // The allowance is whole: a question that can be searched is still accepted (not 429).
    } finally {
      await srv.stop(100);
    }
  });

  test("a collection the caller can read holding documents: accepted and answered from it, one run used", async () => {
    const { srv, store } = offlineServer({ openalex: closedPort(), arxiv: closedPort(), crossref: closedPort() });
    try {
      await fillCollection(store, "notes", BATTERY_NOTES);
      const { c, key } = await keyedClient(srv.url);
      const env = (await (await query(srv.url, key, QUESTION)).json()) as any;
      expect(env.status).toBe("ok");
      expect(env.sources.every((s: any) => s.type === "local")).toBe(true);
      expect(await c.used()).toBe(1);
    } finally {
      await srv.stop(100);
    }
  });

  test("a database that becomes reachable: the next question is accepted, no restart", async () => {
    const port = closedPort();
    const { srv } = offlineServer({ openalex: port, arxiv: closedPort(), crossref: closedPort() });
    let online: ReturnType<typeof Bun.serve> | undefined;
    try {
      const { c, key } = await keyedClient(srv.url);
      expect((await query(srv.url, key, QUESTION)).status).toBe(503);
      // The box comes online: OpenAlex answers at the address that refused a moment ago.
      online = Bun.serve({
        port,
        hostname: "127.0.0.1",
        fetch: (req) => {
          const u = new URL(req.url);
          return fetch(`${fx.base}${u.pathname}${u.search}`, { method: req.method });
        },
      });
      const env = (await (await query(srv.url, key, QUESTION)).json()) as any;
      expect(env.errors.map((e: any) => e.code)).not.toContain("search_unavailable");
      expect(env.status).toBe("ok");
      expect(await c.used()).toBe(1);
    } finally {
      online?.stop(true);
      await srv.stop(100);
    }
  });

  test("a box that goes offline: the run that meets it fails search_failed (charged), the next question is refused", async () => {
    const port = closedPort();
    const online = Bun.serve({
      port,
      hostname: "127.0.0.1",
      fetch: (req) => {
        const u = new URL(req.url);
        return fetch(`${fx.base}${u.pathname}${u.search}`, { method: req.method });
      },
    });
    const { srv } = offlineServer({ openalex: port, arxiv: closedPort(), crossref: closedPort() });
    try {
      const { c, key } = await keyedClient(srv.url);
      expect(((await (await query(srv.url, key, QUESTION)).json()) as any).status).toBe("ok");
      online.stop(true);
      // Known reachable, so accepted; its every database call fails to connect.
      const failed = (await (await query(srv.url, key, QUESTION)).json()) as any;
      expect(failed.errors[0].code).toBe("search_failed");
      expect(failed.errors[0].message).toContain("openalex (network");
      const refused = await query(srv.url, key, QUESTION);
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as any).errors[0].code).toBe("search_unavailable");
      expect(await c.used()).toBe(2);
    } finally {
      online.stop(true);
      await srv.stop(100);
    }
  });

  test("a database answering with an HTTP error is reachable: the run is accepted, charged, and fails search_failed saying what to do", async () => {
    fx.setMode("openalex", "500");
    const { srv } = offlineServer(
      { openalex: closedPort(), arxiv: closedPort(), crossref: closedPort() },
      {
        OPENALEX_URL: fx.urls.openalex,
      },
    );
    try {
      const { c, key } = await keyedClient(srv.url);
      const env = (await (await query(srv.url, key, QUESTION)).json()) as any;
      expect(env.errors[0].code).toBe("search_failed");
      // What went wrong, then what to do, on the stream's error event as in the envelope.
      expect(env.errors[0].message).toContain("openalex (http_status 500");
      expect(env.errors[0].message).toContain("What to do: ");
      expect(env.errors[0].message).toContain("SEARXNG_URL");
      const { events } = await readSse(await query(srv.url, key, QUESTION, {}, "/api/query/stream"));
      const error = events.find((e) => e.event === "error")!.data as any;
      expect(error.code).toBe("search_failed");
      expect(error.message).toContain("What to do: ");
      expect(await c.used()).toBe(2);
    } finally {
      fx.setMode("openalex", "ok");
      await srv.stop(100);
    }
  });
});
