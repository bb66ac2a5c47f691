import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keyedClient } from "../helpers/server.ts";
import {
  BATTERY_NOTES,
  type CollectionsServer,
  fillCollection,
  startCollectionsServer,
} from "../runs/collections-server.ts";
import {
  BACKED,
  CONTRADICTED,
  CONTRADICTING_QUOTE,
  PARTIAL,
  RECITED,
  RECITED_QUOTE,
  verdictsVerifier,
} from "../runs/verdicts-verifier.ts";
import { useLongTimeout } from "../setup.ts";
import { mcpSession, textOf } from "./mcp-client.ts";

useLongTimeout();

/**
 * MCP's `research` lists each quote's verdict in words, through the SDK's client, against a
 * server whose claim check gives every verdict and moves a marker
 * (docs/decisions/0173-verdicts-in-words-in-the-timeline-ask-and-mcp.md).
 */

let server: CollectionsServer, key: string;
beforeAll(async () => {
  server = await startCollectionsServer({}, verdictsVerifier);
  await fillCollection(server.store, "notes", BATTERY_NOTES);
  ({ key } = await keyedClient(server.srv.url));
});
afterAll(() => server?.stop());

describe("mcp research lists verdicts", () => {
  test("supported, partial, contradicted and a moved marker read differently", async () => {
    const mcp = await mcpSession(["--server", server.srv.url], { RQ_API_KEY: key });
    try {
      const r = await mcp.client.callTool({
        name: "research",
        arguments: { question: "What limits solid-state batteries?" },
      });
      expect(r.isError).toBeFalsy();
      const text = textOf(r);
      expect(text).toContain(`backs: ${BACKED} (supported, support 0.82)`);
      expect(text).toContain(`partly backs: ${PARTIAL} (partial, support 0.40)`);
      expect(text).toContain(
        `> "${CONTRADICTING_QUOTE}"\n       says otherwise: ${CONTRADICTED} (contradicted, support 0.31)`,
      );
      expect(text).toContain(
        `> "${RECITED_QUOTE}"\n       backs: ${RECITED} (supported, marker moved here by the check, support 0.74)`,
      );
    } finally {
      await mcp.close();
    }
  });
});
