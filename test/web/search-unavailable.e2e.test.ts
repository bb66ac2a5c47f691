import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { type CollectionsServer, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { ask, signedUp } from "./app-session.ts";
import { launchChromium, canRun as run } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/**
 * The Research page of a server that can search nothing (no web provider, no database, no
 * documents): the question is refused before it is accepted and the page says what to
 * configure, at a laptop's width and a phone's; the month's runs stay unspent.
 */

let t: CollectionsServer, browser: Browser;
beforeAll(async () => {
  if (!run) return;
  mkdirSync(SHOTS, { recursive: true });
  t = await startCollectionsServer({ SEARXNG_URL: "", PLAN_RUNS_FREE: "3" });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!run) return;
  await browser?.close();
  await t?.stop();
});

describe.if(run)("search_unavailable on the Research page", () => {
  for (const [name, width, height] of [
    ["laptop", 1280, 900],
    ["phone", 390, 844],
  ] as const) {
    test(`${name} (${width} px): the refusal's message, what to set, no run spent`, async () => {
      const s = await signedUp(browser, t.srv.url, `${name}@example.com`, { viewport: { width, height } });
      try {
        for (let i = 0; i < 4; i++) await ask(s.page, "What limits solid-state batteries?");
        const alert = s.page.locator(".alert");
        await alert.waitFor();
        const text = (await alert.textContent()) ?? "";
        expect(text).toStartWith("nothing can search on this server");
        for (const fix of ["SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY", "corpus add"]) expect(text).toContain(fix);
        expect(await alert.isVisible()).toBe(true);
        await s.page.screenshot({ path: join(SHOTS, `search-unavailable-${name}.png`), fullPage: true });
        const usage = await s.page.evaluate(() => fetch("/api/console/usage").then((r) => r.json()));
        expect(usage.allowance.used).toBe(0);
      } finally {
        await s.ctx.close();
      }
    });
  }
});
