import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Envelope, Evidence } from "../../src/contract/envelope.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { type ChatBody, type ChatServer, isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
import { BATTERY_NOTES, closedPort, fillCollection } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

/**
 * `ask` as a process, through the real claim check: a model's answer with a claim its source
 * backs, one it backs in part and one whose figure it states otherwise. Each quote is printed
 * with what it does for its claim and the verdict, as the envelope has them
 * (docs/decisions/0173-verdicts-in-words-in-the-timeline-ask-and-mcp.md).
 */

const BACKED =
  "Solid-state batteries are held back by dendrites growing through the ceramic electrolyte at high current";
const PARTIAL = "Dendrites that grow in sodium cells are stopped by polymer separators and fluorinated additives";
const NUMBER = "Our Q3 cells shorted after 400 cycles once lithium filaments crossed grain boundaries in the separator";

/** The id the writer's prompt gave the Q3 note. */
function q3Of(body: ChatBody): string {
  const user = body.messages.find((m) => m.role === "user")!.content;
  return (
    [...user.matchAll(/<source id="(S\d)" title="([^"]*)"/g)].find((m) => m[2]?.startsWith("Q3 review"))?.[1] ?? "S9"
  );
}

const DOES = {
  supported: "backs:",
  partial: "partly backs:",
  contradicted: "says otherwise:",
  unsupported: "does not back:",
};

let chat: ChatServer, env: Record<string, string>;
beforeAll(async () => {
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { text: '{"kind":"mixed","language":"en","queries":["solid-state battery limits"]}' }
      : { text: [BACKED, PARTIAL, NUMBER].map((c) => `${c} [${q3Of(b)}].`).join(" ") },
  );
  const db = join(mkdtempSync(join(tmpdir(), "rq-ask-verdicts-")), "rq.db");
  const store = openSqliteStore(db);
  await fillCollection(store, "notes", BATTERY_NOTES);
  store.close();
  env = {
    DATABASE_PATH: db,
    ACADEMIC_PROVIDERS: "none",
    SEARXNG_URL: `http://127.0.0.1:${closedPort()}`,
    OPENAI_BASE_URL: chat.openaiBase,
    LLM_MODEL: "writer-model",
  };
});
afterAll(() => chat?.stop());

describe("ask lists each quote's verdict", () => {
  test("the envelope's verdicts, each in its words, under the quote", async () => {
    const j = await cli(["ask", "What limits solid-state batteries?", "--json"], env);
    expect(j.code).toBe(0);
    const out = JSON.parse(j.out) as Envelope;
    const items = out.sources.flatMap((s) => s.evidence ?? []) as Evidence[];
    const verdicts = Object.fromEntries(items.map((e) => [e.claim, e.verdict]));
    expect(verdicts[`${NUMBER}.`]).toBe("contradicted");
    expect(verdicts[`${BACKED}.`]).toBe("supported");
    expect(verdicts[`${PARTIAL}.`]).toBe("partial");

    const plain = await cli(["ask", "What limits solid-state batteries?"], env);
    expect(plain.code).toBe(0);
    for (const e of items)
      expect(plain.out).toContain(
        `> "${e.quote}"\n       ${DOES[e.verdict!]} ${e.claim} (${e.verdict}, support ${e.support.toFixed(2)})`,
      );
    expect(plain.out).toContain("1 contradicted by a quote.");
  });
});
