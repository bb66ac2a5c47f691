import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import {
  BATTERY_NOTES,
  type CollectionsServer,
  fillCollection,
  startCollectionsServer,
} from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { launchChromium, canRun as run, watchConsole } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/**
 * Local sources in the web app and the Console's run timeline: each links to the document's
 * page in the app, never to its `local:` reference (which leads nowhere in a browser) nor to
 * a path on the server; the collection and the document are named beside it. The run is real:
 * an offline server answering from its collections.
 */

let t: CollectionsServer, browser: Browser, page: Page, problems: string[];
beforeAll(async () => {
  if (!run) return;
  mkdirSync(SHOTS, { recursive: true });
  t = await startCollectionsServer();
  await fillCollection(t.store, "notes", BATTERY_NOTES);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  problems = watchConsole(page);
}, 60_000);
afterAll(async () => {
  if (!run) return;
  await browser?.close();
  await t?.stop();
});

/**
 * Every source item is local: its title links to the document's page, "collection · doc_id"
 * shown; under it, the quotes it gave the answer link to the same page, the quote marked.
 */
async function expectLocalItems(p: Page): Promise<void> {
  const items = p.locator("ol.sources > li");
  const n = await items.count();
  expect(n).toBeGreaterThanOrEqual(2);
  const hrefs = await p.locator("ol.sources > li > a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  expect(hrefs).toHaveLength(n);
  const quoteLinks = await p
    .locator("ol.sources details.quotes a")
    .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  expect(quoteLinks.length).toBeGreaterThanOrEqual(n);
  hrefs.push(...quoteLinks);
  // The operator's collection (no owner): an empty owner= names it even beside one of the reader's own.
  for (const href of hrefs) expect(href).toMatch(/^\/documents\/notes\?doc=[^&#]+&owner=#quote=./);
  expect(hrefs.some((x) => x.startsWith("/documents/notes?doc=reports%2Fq3%20review.md&owner=#quote="))).toBe(true);
  expect(await p.locator('a[href^="local:"]').count()).toBe(0);
  // The item's own line, without the quotes under it.
  const texts = await items.evaluateAll((lis) =>
    lis.map((li) =>
      [...li.childNodes]
        .filter((c) => !(c instanceof HTMLDetailsElement))
        .map((c) => c.textContent)
        .join(""),
    ),
  );
  expect(texts.some((x) => x.includes("notes · reports/q3 review.md · local"))).toBe(true);
  for (const x of texts) expect(x).toMatch(/ — notes · \S.* · local$/);
}

describe.if(run)("local sources in Chromium", () => {
  test("research page and run timeline: collection and document, linked to the document's page", async () => {
    await page.goto(`${t.srv.url}/signup`);
    await page.getByLabel("Email").fill("local@example.com");
    await page.getByLabel("Password").fill("a long password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Research" }).waitFor();

    await page.getByLabel("Your question").fill("What limits solid-state batteries?");
    await page.getByRole("button", { name: "Ask" }).click();
    await page.locator("#src-S2").waitFor();
    await expectLocalItems(page);
    // The answer's markers still jump to the source items.
    expect(await page.locator('.answer a.cite[href="#src-S1"]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, "research-local.png"), fullPage: true });

    await page.getByRole("link", { name: "Usage" }).click();
    await page.locator('a[href^="/runs/"]').first().click();
    await page.getByRole("heading", { name: "Run timeline" }).waitFor();
    await page.locator("#src-S2").waitFor();
    await expectLocalItems(page);
    expect(await page.getByText("notes: read from collection").count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, "timeline-local.png"), fullPage: true });

    // The operator's shared collection: its document's page, the passage the answer quoted marked.
    await page.locator("#src-S1 > a").click();
    await page.locator("mark").waitFor();
    expect(await page.locator("main").textContent()).toContain("Collection notes · owner: the operator");
    expect(await page.locator(".passage.quoted").count()).toBe(1);
    expect((await page.locator("mark").textContent())!.length).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });
});
