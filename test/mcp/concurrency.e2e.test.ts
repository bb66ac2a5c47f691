import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { useLongTimeout } from "../setup.ts";
import { type McpSession, mcpSession, textOf } from "./mcp-client.ts";

useLongTimeout();

let pages: PageServer, search: SearchFixtures, mcp: McpSession;

beforeAll(async () => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  mcp = await mcpSession([], {
    SEARXNG_URL: search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    FETCH_ALLOW_PRIVATE: "true",
    DATABASE_PATH: "./none.db",
    MCP_MAX_CONCURRENT: "2",
  });
});
afterAll(async () => {
  await mcp.close();
  pages.stop();
  search.stop();
});

const question = (n: number) => ({ name: "research", arguments: { question: `What is base editing? (${n})` } });

describe("mcp local mode: MCP_MAX_CONCURRENT research calls at once", () => {
  test("the call past the cap is a too_many_calls tool error; once calls end, new ones run", async () => {
    search.setMode("searxng", "hang");
    const stop = new AbortController();
    const searching = [Promise.withResolvers<void>(), Promise.withResolvers<void>()];
    const held = searching.map((s, i) =>
      mcp.client
        .callTool(question(i), undefined, {
          signal: stop.signal,
          onprogress: (p) => {
            if (p.message?.startsWith("searching")) s.resolve();
          },
        })
        .catch((e: Error) => e),
    );
    // Both runs are under way (held at the search that never answers).
    await Promise.all(searching.map((s) => s.promise));

    const refused = await mcp.client.callTool(question(3));
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toStartWith("too_many_calls: 2 research calls are running");
    expect(refused.structuredContent).toBeUndefined();

    // The two held calls stop; their runs end (each logs its run_end), freeing their places.
    stop.abort("the user pressed stop");
    expect((await Promise.all(held)).every((r) => r instanceof Error)).toBe(true);
    const ended = () => mcp.stderr().split('"code":"interrupted"').length - 1;
    while (ended() < 2) await Bun.sleep(50); // bounded by the test's timeout
    search.setMode("searxng", "ok");
    const [a, b] = await Promise.all([mcp.client.callTool(question(4)), mcp.client.callTool(question(5))]);
    expect((a.structuredContent as { status: string }).status).toBe("ok");
    expect((b.structuredContent as { status: string }).status).toBe("ok");
    expect(mcp.transportErrors).toEqual([]);
  });
});
