import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { type ChatBody, type ChatServer, isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
import {
  BATTERY_NOTES,
  type CollectionsServer,
  fillCollection,
  startCollectionsServer,
} from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { type AppSession, signedUp } from "./app-session.ts";
import { launchChromium, PHONE, phoneProblems, canRun as run, watchConsole } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/**
 * Claims you can check, in Chromium, on a real run: the server's engine answers from its
 * collection through a fixture model whose answer paraphrases one source, gets a number
 * wrong and cites the wrong source for a third claim. The page must show, for each marker
 * left, the very quote the envelope recorded, mark the sentences no source backs, and count
 * them; the stored run's page must show the same, and the timeline the check.
 */

interface Evidence {
  claim: string;
  quote: string;
  support: number;
}
interface Env {
  request_id: string;
  answer: string;
  sources: { id: string; title: string; evidence?: Evidence[] }[];
  verification?: { claims: number; cited: number; supported: number; unsupported: number; coverage: number };
}

/** The id the writer's prompt gave the note with this title (S9, which the run drops, if none). */
function idOf(body: ChatBody, title: string): string {
  const user = body.messages.find((m) => m.role === "user")!.content;
  return [...user.matchAll(/<source id="(S\d)" title="([^"]*)"/g)].find((m) => m[2] === title)?.[1] ?? "S9";
}

const PARAPHRASED = "dendrites growing through the ceramic electrolyte";
const WRONG_NUMBER = "shorted after 400 cycles";
const SWAPPED = "lithium niobate coatings";

/** The writer's answer: one paraphrase the note backs, a number the note contradicts, a claim cited to the wrong note. */
function answerFor(body: ChatBody): string {
  const q3 = idOf(body, "Q3 review: solid-state cells");
  const iface = idOf(body, "Interface resistance in solid electrolytes");
  const making = idOf(body, "Making sulfide electrolytes at scale");
  return [
    `Solid-state batteries are limited by ${PARAPHRASED} at high current [${q3}]. The interface between lithium metal and the solid electrolyte has a high resistance [${iface}].`,
    "",
    `- The Q3 cells ${WRONG_NUMBER} once lithium filaments crossed grain boundaries [${q3}].`,
    `- Voids at the interface were removed by ${SWAPPED} in the dry room [${making}].`,
  ].join("\n");
}

let t: CollectionsServer, chat: ChatServer, browser: Browser, me: AppSession, env: Env, runId: string;
beforeAll(async () => {
  if (!run) return;
  mkdirSync(SHOTS, { recursive: true });
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { text: '{"kind":"mixed","language":"en","queries":["solid-state battery limits"]}' }
      : { text: answerFor(b) },
  );
  t = await startCollectionsServer({ OPENAI_BASE_URL: chat.openaiBase, LLM_MODEL: "writer-model" });
  await fillCollection(t.store, "notes", BATTERY_NOTES);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!run) return;
  await browser?.close();
  await t?.stop();
  chat?.stop();
});

/** The final event's data in a text/event-stream body. */
function finalOf(stream: string): Env {
  const block = stream.split(/\n\n/).find((b) => /^event: final$/m.test(b))!;
  return JSON.parse(
    block
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trim())
      .join("\n"),
  );
}

/** The claim span holding `words`, and the one marker in it. */
const sentence = (p: Page, words: string) => p.locator(".answer span.claim", { hasText: words });
const markerIn = (span: Locator) => span.locator("a.cite").first();

/** The envelope's evidence of source `id` for the claim holding `words`. */
function evidenceOf(id: string, words: string): Evidence {
  const found = env.sources.find((s) => s.id === id)?.evidence?.find((e) => e.claim.includes(words));
  if (!found) throw new Error(`no evidence of ${id} for "${words}" in ${JSON.stringify(env.sources)}`);
  return found;
}

describe.if(run)("claims you can check, in Chromium", () => {
  test("research page: hover and keyboard show the envelope's quote; unbacked sentences marked; the count", async () => {
    me = await signedUp(browser, t.srv.url, "evidence@example.com");
    const { page } = me;
    await page.getByLabel("Your question").fill("What limits solid-state batteries?");
    const streamed = page.waitForResponse((r) => r.url().endsWith("/api/v1/research/stream"));
    await page.getByRole("button", { name: "Ask" }).click();
    const stream = await (await streamed).text();
    env = finalOf(stream);
    runId = env.request_id;
    await page.getByText(/Done in/).waitFor();
    expect(stream).toMatch(/"stage":"verifying"/);
    expect(env.verification).toBeDefined();
    const v = env.verification!;

    // The paraphrase keeps its marker; hovering it shows the very quote the envelope has.
    const backed = sentence(page, PARAPHRASED);
    const cite = markerIn(backed);
    const id = (await cite.textContent())!.slice(1, -1);
    await cite.hover();
    const tip = page.getByRole("tooltip");
    await tip.waitFor();
    const want = evidenceOf(id, PARAPHRASED);
    expect(await tip.locator("blockquote").textContent()).toBe(want.quote);
    expect(await tip.textContent()).toContain(`Support ${want.support.toFixed(2)}`);
    expect(await tip.textContent()).toContain(env.sources.find((s) => s.id === id)!.title);
    expect(await cite.getAttribute("aria-describedby")).toBe(await tip.getAttribute("id"));
    expect(await backed.getAttribute("class")).not.toContain("unbacked");
    await page.screenshot({ path: join(SHOTS, "evidence-hover.png"), fullPage: true });

    // Keyboard: focus shows it; one open at a time, another marker's quote replaces it; Escape closes it.
    // (With the pointer, the open popover may lie over the next marker: it stays hoverable, as WCAG 1.4.13 asks.)
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: "hidden" });
    await cite.focus();
    await tip.waitFor();
    expect(await tip.locator("blockquote").textContent()).toBe(want.quote);
    const other = markerIn(sentence(page, "high resistance"));
    await other.focus();
    expect(await page.getByRole("tooltip").count()).toBe(1);
    const otherId = (await other.textContent())!.slice(1, -1);
    expect(await tip.locator("blockquote").textContent()).toBe(evidenceOf(otherId, "high resistance").quote);
    await page.keyboard.press("Escape");
    await tip.waitFor({ state: "hidden" });

    // The wrong number and the wrong source: no supported citation, marked (marker kept or not).
    for (const words of [WRONG_NUMBER, SWAPPED]) {
      const span = sentence(page, words);
      expect(await span.getAttribute("class")).toContain("unbacked");
      expect(await span.getAttribute("title")).toBe("No source backs this sentence");
    }
    const note = page.getByLabel("Verification");
    expect(await note.textContent()).toContain(`${v.supported} of ${v.claims} claims backed by a quote`);
    expect(await note.textContent()).toContain("no source backs this sentence");
    expect(await page.locator(".answer span.claim.unbacked").count()).toBe(v.claims - v.supported);
    expect(me.seen).toEqual([]);
  });

  test("the stored run on a phone: tap a marker for its quote, the check on the timeline", async () => {
    const ctx = await browser.newContext({ ...PHONE, storageState: await me.ctx.storageState() });
    const page = await ctx.newPage();
    const seen = watchConsole(page);
    try {
      await page.goto(`${t.srv.url}/runs/${runId}`);
      await page.getByRole("heading", { name: "Run timeline" }).waitFor();
      const cite = markerIn(sentence(page, PARAPHRASED));
      const id = (await cite.textContent())!.slice(1, -1);
      await cite.tap();
      const tip = page.getByRole("tooltip");
      await tip.waitFor();
      expect(await tip.locator("blockquote").textContent()).toBe(evidenceOf(id, PARAPHRASED).quote);
      const box = (await tip.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(page.url()).not.toContain("#src-");
      await page.screenshot({ path: join(SHOTS, "evidence-phone.png") });
      // A tap elsewhere closes it.
      await page.getByRole("heading", { name: "Run timeline" }).tap();
      await tip.waitFor({ state: "hidden" });

      const v = env.verification!;
      for (const words of [WRONG_NUMBER, SWAPPED])
        expect(await sentence(page, words).getAttribute("class")).toContain("unbacked");
      expect(await page.getByLabel("Verification").textContent()).toContain(
        `${v.supported} of ${v.claims} claims backed by a quote`,
      );
      // The timeline: the verifying entry with its counts, its lane, each source's quotes.
      const entry = page.locator("ol.log li", { hasText: "verifying" });
      expect(await entry.textContent()).toContain(`${v.claims} claims, ${v.cited} cited, ${v.supported} supported`);
      expect(await page.locator("svg.timeline text", { hasText: "verifying" }).count()).toBe(1);
      const quotes = page.locator(`#src-${id} details.quotes`);
      await quotes.locator("summary").tap();
      expect(await quotes.textContent()).toContain(evidenceOf(id, PARAPHRASED).quote);
      expect(await phoneProblems(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, "evidence-run-phone.png"), fullPage: true });
      expect(seen).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
