import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { signedUp } from "./app-session.ts";
import { canRun, launchChromium, PHONE } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/**
 * A direct load of a page and a move inside the app: the header stays in view (focusing a page
 * taller than the window scrolled it away), no thick ring is drawn around the whole of <main>,
 * and after a move focus is on <main>, so a screen reader and Tab start at the new page.
 */

let srv: TestServer, browser: Browser;
beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(SHOTS, { recursive: true });
  srv = startTestServer({ env: { PLAN_RUNS_FREE: "20" } });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await srv?.stop(100);
});

/** Where the page is scrolled, where the header is, what has focus, and the ring drawn around <main>. */
const where = (page: Page) =>
  page.evaluate(() => {
    const main = document.getElementById("main")!;
    const s = getComputedStyle(main);
    return {
      scrollY: Math.round(window.scrollY),
      headerTop: Math.round(document.querySelector("header.top")!.getBoundingClientRect().top),
      ring: s.outlineStyle === "none" || s.outlineWidth === "0px" ? "none" : `${s.outlineWidth} ${s.outlineStyle}`,
    };
  });
const focused = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);

// Short windows: the Usage and API-keys pages are taller than them, as on a laptop.
const SIZES = [
  ["1280", { viewport: { width: 1280, height: 500 } }],
  ["390", { ...PHONE, viewport: { width: 390, height: 500 } }],
] as const;

describe.if(canRun)("focus when a page is loaded or the app moves to another", () => {
  for (const [size, options] of SIZES) {
    test(`${size} px: the header stays in view and <main> gets no ring, on a direct load and after a move`, async () => {
      const s = await signedUp(browser, srv.url, `focus-${size}@example.com`, options);
      const p = s.page;
      try {
        for (const path of ["/keys", "/usage"]) {
          await p.goto(srv.url + path);
          await p.locator("main h1").waitFor();
          await p.locator("main h2").first().waitFor();
          expect([path, await where(p)]).toEqual([path, { scrollY: 0, headerTop: 0, ring: "none" }]);
        }
        await p.screenshot({ path: join(SHOTS, `focus-direct-${size}.png`) });
        // A move inside the app, from a page scrolled down: focus on <main>, the page at its top.
        await p.mouse.wheel(0, 400);
        await p.getByRole("link", { name: "API keys" }).click();
        await p.getByRole("heading", { name: "Your keys" }).waitFor();
        await p.waitForFunction(() => document.activeElement?.id === "main");
        expect(await where(p)).toEqual({ scrollY: 0, headerTop: 0, ring: "none" });
        await p.screenshot({ path: join(SHOTS, `focus-moved-${size}.png`) });
        // Tab goes on from the new page: its first control, not the header's.
        await p.keyboard.press("Tab");
        expect(await focused(p)).toBe("INPUT");
        expect(s.seen).toEqual([]);
      } finally {
        await s.ctx.close();
      }
    });
  }
});
