import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { fillCollection } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { type AppSession, signedUp } from "./app-session.ts";
import { canRun, launchChromium, PHONE, phoneProblems } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");
const LONG_QUESTION = `What limits solid-state batteries at high current and low temperature? ${"Explain ".repeat(12)}`;

/**
 * The details a newcomer tripped over, page by page, at 1280 and 390 px: the password rule in
 * words, Usage's headers whole and its counts in agreement, a gap under the new key, a timeline
 * that says it scrolls, breadcrumbs that end at the page, one number format and binary sizes.
 */

let srv: TestServer, browser: Browser;
beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(SHOTS, { recursive: true });
  const store = openSqliteStore(":memory:");
  // A shared collection of 1,200 documents: the count written with a separator beside the plan's 1,000.
  const docs = Array.from({ length: 1200 }, (_, i) => ({ id: `n${i}.md`, title: `Note ${i}`, text: `Note ${i}.` }));
  docs[0] = { id: "n0.md", title: "Dendrites in the separator", text: "Dendrites grow at high current." };
  await fillCollection(store, "handbook", docs);
  srv = startTestServer({ store, env: { PLAN_RUNS_FREE: "20" } });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await srv?.stop(100);
});

const SIZES = [
  ["1280", { viewport: { width: 1280, height: 900 } }],
  ["390", PHONE],
] as const;

async function passwordRule(page: Page, size: string): Promise<void> {
  await page.goto(`${srv.url}/signup`);
  const rule = page.locator("#password-rule");
  expect(await rule.textContent()).toBe("Use 8 to 256 characters.");
  expect(await page.getByLabel("Password").getAttribute("aria-describedby")).toBe("password-rule");
  const sent: string[] = [];
  page.on("request", (r) => void (r.url().endsWith("/auth/signup") && sent.push(r.url())));
  await page.getByLabel("Email").fill(`rule-${size}@example.com`);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  expect(await page.locator("p.alert").allTextContents()).toEqual([
    "This password is too short: use 8 to 256 characters.",
  ]);
  expect(sent).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `details-password-${size}.png`) });
  // An address the browser lets through and the server refuses: the server's own words are shown.
  await page.getByLabel("Email").fill("someone@localhost");
  await page.getByLabel("Password").fill("a long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("(the server said: invalid or missing field: email)").waitFor();
  expect(sent.length).toBe(1);
}

/** The breadcrumbs as drawn: each place with the separator before it, and which is the page shown; nothing after the last. */
const trail = (page: Page) =>
  page.evaluate(() => {
    const crumbs = document.querySelector(".crumbs")!;
    const out = [...crumbs.querySelectorAll("li")].map((li) => {
      const before = getComputedStyle(li, "::before").content.match(/^"(.*?)"/)?.[1] ?? "";
      const here = li.querySelector("[aria-current=page]") ? " (here)" : "";
      return `${before ? `${before} ` : ""}${li.textContent}${here}`;
    });
    // Text outside the places (a separator typed after the last) counts as one more entry.
    const loose = [...crumbs.querySelectorAll("*")].flatMap((el) =>
      [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent!.trim() && !n.parentElement!.closest("li")),
    );
    return [...out, ...loose.map((n) => `loose "${n.textContent!.trim()}"`)];
  });

describe.if(canRun)("page details at 1280 and 390 px", () => {
  for (const [size, options] of SIZES) {
    test(`${size} px: password rule, Usage, the new key, the timeline, Documents`, async () => {
      const guest = await browser.newContext(options);
      await passwordRule(await guest.newPage(), size);
      await guest.close();

      const s: AppSession = await signedUp(browser, srv.url, `details-${size}@example.com`, options);
      const p = s.page;
      const wide = size === "1280";
      try {
        await p.getByLabel("Your question").fill(LONG_QUESTION);
        await p.getByRole("button", { name: "Ask" }).click();
        await p.getByText(/Done in/).waitFor();

        await p.getByRole("link", { name: "Usage" }).click();
        await p.getByRole("heading", { name: "Recent calls" }).waitFor();
        const main = (await p.locator("main").textContent())!;
        expect(main).toContain("1 call this month: 1 ok, 0 error.");
        expect(main).toContain("0 of 1,000 documents and 0\u00a0B of 50\u00a0MiB used");
        if (wide) {
          // Every header on one line, none cut inside a word.
          const heads = await p.locator("table.cards th").evaluateAll((ths) =>
            ths.map((th) => {
              const line = Number.parseFloat(getComputedStyle(th).lineHeight);
              const pad = Number.parseFloat(getComputedStyle(th).paddingTop) * 2;
              return `${th.textContent}: ${th.clientHeight - pad <= line * 1.2 ? "one line" : "wrapped"}`;
            }),
          );
          expect(heads).toEqual(["When", "Status", "Origin", "Key", "Latency", "Query"].map((h) => `${h}: one line`));
        }
        await p.screenshot({ path: join(SHOTS, `details-usage-${size}.png`), fullPage: true });

        // The run's timeline: on a phone it scrolls sideways, and says so.
        await p.locator("a[href^='/runs/']").first().click();
        await p.getByRole("heading", { name: "Run timeline" }).waitFor();
        const cue = await p.locator(".scroll-x").evaluate((box) => ({
          scrolls: box.scrollWidth > box.clientWidth,
          shadow: getComputedStyle(box).backgroundImage.includes("gradient"),
          hint: (box.nextElementSibling as HTMLElement).checkVisibility() ? box.nextElementSibling!.textContent : null,
        }));
        expect(cue).toEqual(
          wide
            ? { scrolls: false, shadow: false, hint: null }
            : { scrolls: true, shadow: true, hint: "Scroll sideways for the whole timeline." },
        );
        await p.screenshot({ path: join(SHOTS, `details-timeline-${size}.png`), fullPage: true });

        // The new key's panel keeps a gap above the form under it.
        await p.getByRole("link", { name: "API keys" }).click();
        await p.getByRole("button", { name: "Create key" }).click();
        await p.locator("#new-key").waitFor();
        const gap = await p.evaluate(() => {
          const panel = document.querySelector("#key-reveal .note")!.getBoundingClientRect();
          return Math.round(document.querySelector("main form")!.getBoundingClientRect().top - panel.bottom);
        });
        expect(gap).toBeGreaterThanOrEqual(12);
        await p.screenshot({ path: join(SHOTS, `details-keys-${size}.png`) });

        // Documents: 1,200 with a separator, as the plan's 1,000 beside it; crumbs end at the page.
        await p.getByRole("link", { name: "Documents" }).click();
        await p.locator("table.collections").first().waitFor();
        expect(await p.locator("table.collections td[data-label='Documents']").allTextContents()).toEqual(["1,200"]);
        await p.getByRole("link", { name: "handbook" }).click();
        await p.getByText("Owner: the operator · Shared (read-only) · 1,200 documents · ").waitFor();
        expect(await p.locator("table.documents th").allTextContents()).toEqual([
          "Title",
          "ID",
          "Status",
          "Characters",
          "",
        ]);
        expect(await trail(p)).toEqual(["Documents", "› handbook (here)"]);
        await p.getByRole("link", { name: "Dendrites in the separator" }).click();
        await p.getByRole("heading", { name: "Dendrites in the separator" }).waitFor();
        expect(await trail(p)).toEqual(["Documents", "› handbook", "› Dendrites in the separator (here)"]);
        await p.screenshot({ path: join(SHOTS, `details-document-${size}.png`) });
        if (!wide) expect(await phoneProblems(p)).toEqual([]);
        expect(s.seen).toEqual([]);
      } finally {
        await s.ctx.close();
      }
    });
  }
});
