import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { EnvelopeSchema } from "../../src/contract/envelope.ts";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { cuttingProxy } from "../helpers/cutting-proxy.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { type Client, keyedClient, startTestServer } from "../helpers/server.ts";
import { type CollectionsServer, closedPort, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { mcpSession, textOf } from "./mcp-client.ts";

useLongTimeout();

let pages: PageServer, search: SearchFixtures, server: CollectionsServer, owner: Client, key: string;

beforeAll(async () => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  server = await startCollectionsServer({ SEARXNG_URL: search.urls.searxng, FETCH_ALLOW_PRIVATE: "true" });
  ({ c: owner, key } = await keyedClient(server.srv.url));
});
afterAll(async () => {
  await server.stop();
  pages.stop();
  search.stop();
});

/**
 * A server whose runs wait at the writing stage until `gate` opens, reached through a proxy
 * that can cut connections, and an MCP server in remote mode pointed at the proxy.
 */
async function heldRunBehindProxy() {
  const gate = Promise.withResolvers<void>();
  const srv = startTestServer({ engine: scriptedEngine({ gate: gate.promise }), env: { PLAN_RUNS_FREE: "10" } });
  const proxy = await cuttingProxy(srv.url);
  const { c, key: k } = await keyedClient(srv.url);
  const mcp = await mcpSession(["--server", proxy.url], { RQ_API_KEY: k });
  const stop = async () => {
    gate.resolve();
    await mcp.close();
    await proxy.close();
    await srv.stop(100);
  };
  return { gate, proxy, c, mcp, stop };
}

const ask = { name: "research", arguments: { question: "How do base editors avoid double-strand breaks?" } };

describe("mcp --server: research on a research-query server with the account's key", () => {
  test("only research is offered; it answers through the server's stream, counted and recorded like any API call", async () => {
    const mcp = await mcpSession(["--server", server.srv.url], { RQ_API_KEY: key });
    try {
      expect((await mcp.client.listTools()).tools.map((t) => t.name)).toEqual(["research"]);
      const progress: string[] = [];
      const r = await mcp.client.callTool(ask, undefined, { onprogress: (p) => progress.push(p.message ?? "") });
      expect(r.isError).toBeFalsy();
      const env = r.structuredContent as { request_id: string; status: string; answer: string };
      expect(Value.Check(EnvelopeSchema, env)).toBe(true);
      expect(env.status).toBe("ok");
      expect(textOf(r)).toStartWith(env.answer);
      expect(textOf(r)).toContain("Sources:\n[S1] ");
      for (const stage of ["planning", "searching", "reading", "writing"])
        expect(progress.some((m) => m.startsWith(`${stage}: `))).toBe(true);
      expect(await owner.used()).toBe(1);
      const usage = (await (await owner.req("GET", "/api/console/usage")).json()) as {
        recent: { request_id: string; origin: string; endpoint: string; status: string }[];
      };
      expect(usage.recent[0]).toMatchObject({
        request_id: env.request_id,
        origin: "api",
        endpoint: "/api/query/stream",
        status: "ok",
      });
      expect(mcp.stderr()).toContain(`"server":"${server.srv.url}"`);
      expect(mcp.stderr()).not.toContain(key);
      expect(mcp.transportErrors).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  test("a bad, missing or revoked key is an error result with the server's code and envelope", async () => {
    const { c, key: revoked } = await keyedClient(server.srv.url);
    const keys = (await (await c.req("GET", "/api/console/keys")).json()) as { keys: { id: string }[] };
    await c.req("DELETE", `/api/console/keys/${keys.keys[0]!.id}`);
    for (const [k, code] of [
      ["rq-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "invalid_api_key"],
      [undefined, "missing_api_key"],
      [revoked, "key_inactive"],
    ] as const) {
      const mcp = await mcpSession(["--server", server.srv.url], k ? { RQ_API_KEY: k } : {});
      try {
        const r = await mcp.client.callTool(ask);
        expect([code, r.isError]).toEqual([code, true]);
        expect(textOf(r)).toStartWith(`${code}: `);
        expect(r.structuredContent).toMatchObject({ status: "error", answer: null, errors: [{ code }] });
        if (!k) expect(mcp.stderr()).toContain("mcp_no_key");
      } finally {
        await mcp.close();
      }
    }
  });

  test("a used-up allowance is quota_exceeded with the reset date; an upstream failure is the run's code", async () => {
    const tight = await startCollectionsServer({
      SEARXNG_URL: search.urls.searxng,
      FETCH_ALLOW_PRIVATE: "true",
      PLAN_RUNS_FREE: "1",
    });
    const down = await startCollectionsServer(); // its SearXNG is on a closed port
    try {
      const { key: k } = await keyedClient(tight.srv.url);
      const mcp = await mcpSession(["--server", tight.srv.url], { RQ_API_KEY: k });
      try {
        expect((await mcp.client.callTool(ask)).isError).toBeFalsy();
        const r = await mcp.client.callTool(ask);
        expect(r.isError).toBe(true);
        const reset = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString();
        expect(textOf(r)).toBe(
          `quota_exceeded: this month's research runs are used up; the allowance resets at ${reset}`,
        );
        expect(r.structuredContent).toMatchObject({ status: "error", errors: [{ code: "quota_exceeded" }] });
      } finally {
        await mcp.close();
      }
      const failing = await mcpSession(["--server", down.srv.url], { RQ_API_KEY: down.key });
      try {
        const r = await failing.client.callTool(ask);
        expect(r.isError).toBe(true);
        expect(textOf(r)).toStartWith("search_failed: ");
        expect(textOf(r)).toContain("What to do: ");
        expect(r.structuredContent).toMatchObject({ status: "error", errors: [{ code: "search_failed" }] });
      } finally {
        await failing.close();
      }
      // A server that can search nothing: its refusal (503) is the result at once, not retried into server_unreachable.
      const nothing = await startCollectionsServer({ SEARXNG_URL: "" });
      const bare = await mcpSession(["--server", nothing.srv.url], { RQ_API_KEY: nothing.key });
      try {
        const r = await bare.client.callTool(ask);
        expect(r.isError).toBe(true);
        expect(textOf(r)).toStartWith("search_unavailable: nothing can search");
        expect(textOf(r)).toContain("SEARXNG_URL");
        expect(r.structuredContent).toMatchObject({ status: "error", errors: [{ code: "search_unavailable" }] });
      } finally {
        await bare.close();
        await nothing.stop();
      }
    } finally {
      await tight.stop();
      await down.stop();
    }
  });

  test("a server out of reach is server_unreachable after its tries, not a hang", async () => {
    const mcp = await mcpSession(["--server", `http://127.0.0.1:${closedPort()}`], { RQ_API_KEY: key });
    try {
      // "Not a hang" is the answer arriving at all (within the test's timeout), after 3 tries.
      const r = await mcp.client.callTool(ask);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^server_unreachable: http:\/\/127\.0\.0\.1:\d+: .+\(3 tries\)$/);
    } finally {
      await mcp.close();
    }
  });

  test("a stream cut mid-run is rejoined: one run, one charge, the whole answer", async () => {
    const { gate, proxy, c, mcp, stop } = await heldRunBehindProxy();
    try {
      let cut = false;
      const progress: string[] = [];
      const call = mcp.client.callTool(ask, undefined, {
        onprogress: (p) => {
          progress.push(p.message ?? "");
          if (!cut && p.message?.startsWith("writing")) {
            cut = true;
            proxy.cut();
            setTimeout(() => gate.resolve(), 200);
          }
        },
      });
      const r = await call;
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ status: "ok", answer: "Answer text [S1]." });
      expect(cut).toBe(true);
      expect(proxy.connections).toBeGreaterThanOrEqual(2);
      expect(await c.used()).toBe(1);
      // Events already passed on are not passed on again after the rejoin.
      expect(progress.filter((m) => m.startsWith("writing"))).toHaveLength(1);
    } finally {
      await stop();
    }
  });

  test("cancellation closes the stream; the run finishes on the server as any run does", async () => {
    const { gate, proxy, c, mcp, stop } = await heldRunBehindProxy();
    try {
      const cancel = new AbortController();
      const call = mcp.client.callTool(ask, undefined, {
        signal: cancel.signal,
        onprogress: (p) => {
          if (p.message?.startsWith("writing")) cancel.abort("stop");
        },
      });
      await expect(call).rejects.toThrow();
      while (proxy.open > 0) await Bun.sleep(50); // polled for, bounded by the test's timeout
      expect(proxy.open).toBe(0);
      gate.resolve();
      let status = "running";
      while (status === "running") {
        const usage = (await (await c.req("GET", "/api/console/usage")).json()) as { recent: { status: string }[] };
        status = usage.recent[0]?.status ?? "running";
        if (status === "running") await Bun.sleep(50);
      }
      expect(status).toBe("ok");
      expect((await mcp.client.listTools()).tools).toHaveLength(1);
    } finally {
      await stop();
    }
  });
});
