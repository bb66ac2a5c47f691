import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CollectionsServer } from "../runs/collections-server.ts";
import { type Account, aliceAndBob, expectNoLeak, leaksIn, QUORVEX_COLLECTION } from "../runs/privacy-fixtures.ts";
import { useLongTimeout } from "../setup.ts";
import { mcpSession } from "./mcp-client.ts";

useLongTimeout();

/**
 * Remote MCP (`mcp --server URL` with an account's key) is one more way to a run: B's
 * `research` results, progress notifications included, carry nothing of A's private
 * collection; A's cite it; the Console timeline of B's call neither.
 */

let t: CollectionsServer, a: Account, b: Account;
beforeAll(async () => {
  ({ t, a, b } = await aliceAndBob());
});
afterAll(() => t.stop());

const ask = { name: "research", arguments: { question: "What limits solid-state batteries?" } };

/** One `research` call through `mcp --server` with `who`'s key: everything the agent received, as text. */
async function research(who: Account): Promise<{ raw: string; env: any }> {
  const mcp = await mcpSession(["--server", t.srv.url], { RQ_API_KEY: who.key });
  try {
    const progress: string[] = [];
    const r = await mcp.client.callTool(ask, undefined, { onprogress: (p) => progress.push(p.message ?? "") });
    expect(r.isError).toBeFalsy();
    return { raw: JSON.stringify(r) + progress.join("\n"), env: r.structuredContent };
  } finally {
    await mcp.close();
  }
}

describe("remote MCP and A's private collection", () => {
  test("B's research result, progress and timeline carry nothing of it; A's cite it", async () => {
    const seen = await research(b);
    expectNoLeak(seen.raw, "B's MCP result");
    expect(seen.env.sources.map((s: any) => s.collection)).toEqual(seen.env.sources.map(() => "handbook"));
    expectNoLeak(await (await b.c.req("GET", `/api/console/runs/${seen.env.request_id}`)).text(), "B's timeline");

    const mine = await research(a);
    expect(leaksIn(mine.raw).filter((w) => w !== "collection_id").length).toBeGreaterThan(0);
    expect(mine.raw).not.toContain("collection_id");
    expect(mine.env.sources.some((s: any) => s.collection === QUORVEX_COLLECTION && s.owner === a.email)).toBe(true);
  });
});
