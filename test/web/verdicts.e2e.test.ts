import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { type ChatBody, type ChatServer, isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
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
  RECITED,
  RECITED_QUOTE,
  verdictsVerifier,
} from "../runs/verdicts-verifier.ts";
import { useLongTimeout } from "../setup.ts";
import { ask, signedUp } from "./app-session.ts";
import { launchChromium, PHONE, phoneProblems, canRun as run, watchConsole } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");
const QUESTION = "What limits solid-state batteries?";

/**
 * The check's verdicts as a reader sees them (docs/decisions/0171-a-contradicted-claim-shown-with-its-source-s-words.md,
 * docs/decisions/0172-a-re-cited-marker-says-it-was-moved.md): a contradicted claim shows its
 * source's own words under it, a marker the check moved is boxed and says so, in words. First
 * through a claim check that gives every verdict (re-citing is built elsewhere), at 1280 px and
 * on a phone's stored run; then through the real check, a changed number and a denial.
 */

/** The claim span holding `words` (a claim's text without its full stop, which follows its marker). */
const claim = (p: Page, words: string) => p.locator(".answer span.claim", { hasText: words.replace(/\.$/, "") });

let t: CollectionsServer, real: CollectionsServer, chat: ChatServer, browser: Browser;
beforeAll(async () => {
  if (!run) return;
  mkdirSync(SHOTS, { recursive: true });
  t = await startCollectionsServer({}, verdictsVerifier);
  await fillCollection(t.store, "notes", BATTERY_NOTES);
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { text: '{"kind":"mixed","language":"en","queries":["solid-state battery limits"]}' }
      : { text: realAnswer(b) },
  );
  real = await startCollectionsServer({ OPENAI_BASE_URL: chat.openaiBase, LLM_MODEL: "writer-model" });
  await fillCollection(real.store, "notes", BATTERY_NOTES);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!run) return;
  await browser?.close();
  await t?.stop();
  await real?.stop();
  chat?.stop();
});

/** The id the writer's prompt gave the Q3 note. */
function q3Of(body: ChatBody): string {
  const user = body.messages.find((m) => m.role === "user")!.content;
  return (
    [...user.matchAll(/<source id="(S\d)" title="([^"]*)"/g)].find((m) => m[2]?.startsWith("Q3 review"))?.[1] ?? "S9"
  );
}

const REAL_BACKED =
  "Solid-state batteries are limited by dendrites that grow through the ceramic electrolyte at high current";
const REAL_NUMBER =
  "Our Q3 cells shorted after 400 cycles once lithium filaments crossed grain boundaries in the separator";
const REAL_DENIAL = "Stack pressure above 5 MPa did not slow the growth";

function realAnswer(b: ChatBody): string {
  const id = q3Of(b);
  return `${REAL_BACKED} [${id}]. ${REAL_NUMBER} [${id}]. ${REAL_DENIAL} [${id}].`;
}

describe.if(run)("verdicts in the web app, in Chromium", () => {
  test("1280 px: says otherwise under the sentence, the moved marker boxed and explained, the counts", async () => {
    const me = await signedUp(browser, t.srv.url, "verdicts@example.com", { viewport: { width: 1280, height: 900 } });
    const { page } = me;
    await page.getByLabel("Your question").fill(QUESTION);
    await page.getByRole("button", { name: "Ask" }).click();
    await page.getByText(/Done in/).waitFor();

    // The contradicted claim: no marker, underlined, and its source's own words under it.
    expect(await claim(page, CONTRADICTED).locator("a.cite").count()).toBe(0);
    expect(await claim(page, CONTRADICTED).getAttribute("class")).toContain("unbacked");
    const otherwise = page.getByRole("note").filter({ hasText: "says otherwise" });
    expect(await otherwise.count()).toBe(1);
    expect(await otherwise.textContent()).toBe(`S1 says otherwise: ${CONTRADICTING_QUOTE}`);
    expect(await otherwise.locator("a").getAttribute("href")).toBe("#src-S1");

    // The moved marker: boxed, labelled, and its popover says where it came from.
    const moved = claim(page, RECITED).locator("a.cite");
    expect(await moved.getAttribute("class")).toContain("recited");
    expect(await moved.getAttribute("aria-label")).toBe("source 2, moved here by the claim check");
    await moved.hover();
    const tip = page.getByRole("tooltip");
    await tip.waitFor();
    expect(await tip.locator("blockquote").textContent()).toBe(RECITED_QUOTE);
    expect(await tip.textContent()).toContain(
      "Moved here by the claim check: the source the writer cited did not back",
    );
    await page.screenshot({ path: join(SHOTS, "verdicts-1280.png"), fullPage: true });

    // The writer's own marker: as before, nothing said of moving.
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: "hidden" });
    const kept = claim(page, BACKED).locator("a.cite");
    expect(await kept.getAttribute("class")).not.toContain("recited");
    await kept.focus();
    await tip.waitFor();
    expect(await tip.textContent()).not.toContain("Moved here");

    const note = (await page.getByLabel("Verification").textContent()) ?? "";
    expect(note).toContain("1 claim contradicted: what the source says instead is under it");
    expect(note).toContain("1 marker moved to the source that backs the sentence");
    const s1 = page.locator("#src-S1 details.quotes");
    await s1.locator("summary").click();
    expect(await s1.textContent()).toContain(`says otherwise than “${CONTRADICTED}”`);
    const s2 = page.locator("#src-S2 details.quotes");
    await s2.locator("summary").click();
    expect(await s2.textContent()).toContain("marker moved here by the claim check");
    expect(me.seen).toEqual([]);
    await me.ctx.close();
  });

  test("390 px: the stored run shows the same", async () => {
    const me = await signedUp(browser, t.srv.url, "verdicts-phone@example.com", PHONE);
    const { page } = me;
    await ask(page, QUESTION);
    await page.getByRole("link", { name: "Usage" }).click();
    await page.locator('a[href^="/runs/"]').first().click();
    await page.getByRole("heading", { name: "Run timeline" }).waitFor();
    expect(await page.getByRole("note").filter({ hasText: "says otherwise" }).textContent()).toBe(
      `S1 says otherwise: ${CONTRADICTING_QUOTE}`,
    );
    const moved = claim(page, RECITED).locator("a.cite.recited");
    await moved.tap();
    const tip = page.getByRole("tooltip");
    await tip.waitFor();
    expect(await tip.textContent()).toContain("Moved here by the claim check");
    const box = (await tip.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // The timeline's verifying entry: the message and the counts say what the check did.
    const entry = (await page.locator("ol.log li", { hasText: "verifying" }).textContent()) ?? "";
    expect(entry).toContain("1 contradicted by a quote, 1 marker moved to a source that backs the claim");
    expect(entry).toContain("1 unsupported, 1 contradicted, 1 re-cited, coverage 50 %");
    expect(await phoneProblems(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, "verdicts-run-390.png"), fullPage: true });
    expect(me.seen).toEqual([]);
    await me.ctx.close();
  });

  test("the real check: a changed number and a denial lose their marker and show the source's words", async () => {
    const ctx = await browser.newContext(PHONE);
    const page = await ctx.newPage();
    const seen = watchConsole(page);
    await page.goto(`${real.srv.url}/signup`);
    await page.getByLabel("Email").fill("real-verdicts@example.com");
    await page.getByLabel("Password").fill("a long password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Research" }).waitFor();
    const streamed = page.waitForResponse((r) => r.url().endsWith("/api/v1/research/stream"));
    await page.getByLabel("Your question").fill(QUESTION);
    await page.getByRole("button", { name: "Ask" }).click();
    const stream = await (await streamed).text();
    await page.getByText(/Done in/).waitFor();
    const final = JSON.parse(stream.split("event: final\ndata: ")[1]!.split("\n\n")[0]!);
    const q3 = final.sources.find((s: { title: string }) => s.title.startsWith("Q3 review"));
    const verdicts = Object.fromEntries(
      q3.evidence.map((e: { claim: string; verdict: string }) => [e.claim, e.verdict]),
    );
    expect(verdicts[`${REAL_NUMBER}.`]).toBe("contradicted");
    expect(verdicts[`${REAL_DENIAL}.`]).toBe("contradicted");
    expect(verdicts[`${REAL_BACKED}.`]).toBe("supported");

    expect(await claim(page, REAL_BACKED).locator("a.cite").count()).toBe(1);
    for (const words of [REAL_NUMBER, REAL_DENIAL]) {
      expect(await claim(page, words).locator("a.cite").count()).toBe(0);
      const said = q3.evidence.find((e: { claim: string }) => e.claim === `${words}.`).quote;
      const note = page.locator(`span.claim[data-claim^="${words.slice(0, 20)}"] + span.otherwise`);
      expect(await note.textContent()).toBe(`${q3.id} says otherwise: ${said}`);
    }
    expect(await phoneProblems(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, "verdicts-real-390.png"), fullPage: true });
    expect(seen).toEqual([]);
    await ctx.close();
  });
});
