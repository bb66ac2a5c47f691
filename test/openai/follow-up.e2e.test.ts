import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isFollowUp, withEarlierTurns } from "../../src/openai/follow-up.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { keyedClient, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { type FrontProcess, spawnFront } from "./front-process.ts";

useLongTimeout();

describe("the question of a chat: a follow-up carries the question it follows", () => {
  test("a follow-up opens with a continuing word, is a fragment, or is short and leans on a pronoun", () => {
    for (const t of [
      "And in mice?",
      "what about zebrafish",
      "But does it last?",
      "Is it safe?",
      "Compared to Cas9?",
      "Why?",
      "Side effects?",
    ])
      expect([t, isFollowUp(t)]).toEqual([t, true]);
    for (const t of [
      "How do base editors avoid double-strand breaks?",
      "Andean condors: how far do they fly in a day, and what limits the distance they cover?",
      "Does vitamin D supplementation reduce fracture risk?",
    ])
      expect([t, isFollowUp(t)]).toEqual([t, false]);
  });

  test("earlier turns are folded back to the first that stands alone, oldest dropped past 2,000 code points", () => {
    expect(withEarlierTurns(["What is CRISPR?", "How do base editors avoid double-strand breaks?"])).toBe(
      "How do base editors avoid double-strand breaks?",
    );
    expect(
      withEarlierTurns(["What is CRISPR?", "How well does base editing work in human cells?", "And in mice?"]),
    ).toBe("How well does base editing work in human cells?\nAnd in mice?");
    expect(
      withEarlierTurns(["How well does base editing work in human cells?", "And in mice?", "What about rats?"]),
    ).toBe("How well does base editing work in human cells?\nAnd in mice?\nWhat about rats?");
    const long = `${"é".repeat(1990)}?`;
    expect(withEarlierTurns([long, "And in mice?"])).toBe("And in mice?");
    expect(withEarlierTurns(["Short first question?", long.slice(0, 1980), "And then?"])).toBe(
      `${long.slice(0, 1980)}\nAnd then?`,
    );
  });
});

describe("openai --server: the run researches the folded question, charged once", () => {
  const engine = scriptedEngine();
  let srv: TestServer, front: FrontProcess;
  beforeAll(async () => {
    srv = startTestServer({ engine, env: { PLAN_RUNS_FREE: "10" } });
    front = await spawnFront(["--server", srv.url]);
  });
  afterAll(async () => {
    await front.stop();
    await srv.stop(100);
  });

  test("a follow-up's run sees the question before it; the answer and the system message never", async () => {
    const { c, key } = await keyedClient(srv.url);
    await front.sdk(key).chat.completions.create({
      model: "research-query",
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: "How well does base editing work in human cells?" },
        {
          role: "assistant",
          content: "Well, in several cell lines [S1].\n\n**Sources**\n\n1. [Example](https://example.org/a)",
        },
        { role: "user", content: [{ type: "text", text: "And in mice?" }] },
      ],
    });
    await front.sdk(key).chat.completions.create({
      model: "research-query",
      messages: [
        { role: "user", content: "How well does base editing work in human cells?" },
        { role: "assistant", content: "An answer." },
        { role: "user", content: "Does vitamin D supplementation reduce fracture risk?" },
      ],
    });
    expect(engine.queries.slice(-2)).toEqual([
      "How well does base editing work in human cells?\nAnd in mice?",
      "Does vitamin D supplementation reduce fracture risk?",
    ]);
    expect(await c.used()).toBe(2);
  });
});
