import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { AppError } from "../../src/contract/errors.ts";
import type { Engine } from "../../src/research/types.ts";
import { sampleSource } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { signedUp } from "./app-session.ts";
import { canRun, launchChromium, PHONE } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");
const NO_PROVIDER = "no search provider answered: openalex (network)";

/**
 * What the Research page shows between a question and its answer, as a newcomer saw it: no
 * empty box that looks like a field, a failed run's error and the stage it failed in, and an
 * Activity list whose first line is whole. A question with "fail" in it fails while searching.
 */
const engine: Engine = {
  async run(query, ctx) {
    ctx.emit({ type: "progress", stage: "planning", message: "Planning the searches", queries: [query] });
    for (let i = 1; i <= 14; i++)
      ctx.emit({ type: "progress", stage: "searching", message: `Searching provider ${i}` });
    if (query.includes("fail")) throw new AppError("search_failed", NO_PROVIDER);
    ctx.emit({ type: "source", source: sampleSource });
    for (const stage of ["reading", "writing"] as const) ctx.emit({ type: "progress", stage, message: stage });
    ctx.emit({ type: "answer", delta: "Solid electrolytes crack [S1]." });
    return {
      answer: "Solid electrolytes crack [S1].",
      sources: [sampleSource],
      writer: "extractive",
      tokens_in: 0,
      tokens_out: 0,
    };
  },
};

let srv: TestServer, browser: Browser;
beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(SHOTS, { recursive: true });
  srv = startTestServer({ engine, env: { PLAN_RUNS_FREE: "20" } });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await srv?.stop(100);
});

/** The answer box as the reader sees it: shown or not, and whether it has a border that makes it look like a field. */
const answerBox = (page: Page) =>
  page.evaluate(() => {
    const a = document.querySelector<HTMLElement>(".answer");
    if (!a) return "absent";
    const s = getComputedStyle(a);
    return a.offsetParent === null || s.display === "none" ? "hidden" : `shown: ${a.textContent}`;
  });

/** Asks on the page shown (the shared helper's click on "Research" redraws the form under it). */
async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Ask" }).click();
  await page.locator("form button[type=submit]:not([disabled])").waitFor();
}

const SIZES = [
  ["1280", { viewport: { width: 1280, height: 900 } }],
  ["390", PHONE],
] as const;

describe.if(canRun)("the Research page before, during and after a run", () => {
  for (const [size, options] of SIZES) {
    test(`${size} px: no empty answer box; a failed run shows its error and the stage it failed in`, async () => {
      const s = await signedUp(browser, srv.url, `states-${size}@example.com`, options);
      const p = s.page;
      try {
        expect(await answerBox(p)).not.toMatch(/^shown/);
        await ask(p, "Why does this fail?");
        await p.getByText(NO_PROVIDER).waitFor();
        expect(await answerBox(p)).not.toMatch(/^shown/);
        // The stage it failed in says so, in the error's colour; the ones before it are done.
        const stages = await p
          .locator("ol.stages li")
          .evaluateAll((lis) => lis.map((li) => `${li.className}|${li.textContent}|${getComputedStyle(li).color}`));
        expect(stages.slice(0, 2)).toEqual([
          "done|planning|rgb(31, 138, 76)",
          "failed|searching failed|rgb(192, 57, 43)",
        ]);
        await p.screenshot({ path: join(SHOTS, `states-failed-${size}.png`), fullPage: true });

        // Activity, opened: its first line is whole (not cut at the top of its box).
        await p.getByText("Activity").click();
        const clip = await p.locator("ul.log").evaluate((ul) => {
          const box = ul.getBoundingClientRect();
          const first = ul.firstElementChild!.getBoundingClientRect();
          return { above: Math.round(box.top - first.top), lines: ul.children.length };
        });
        expect(clip).toEqual({ above: 0, lines: 16 });
        await p.screenshot({ path: join(SHOTS, `states-activity-${size}.png`), fullPage: true });

        await ask(p, "What limits solid-state batteries?");
        await p.getByText(/Done in/).waitFor();
        expect(await answerBox(p)).toBe("shown: Solid electrolytes crack [S1].");
        expect(await p.locator("ol.stages li.failed").count()).toBe(0);
        // A later failure hides the earlier answer instead of leaving it under the error.
        await ask(p, "Does it fail again?");
        await p.getByText(NO_PROVIDER).waitFor();
        expect(await answerBox(p)).not.toMatch(/^shown/);
        expect(s.seen.filter((e) => !/status of 500/.test(e))).toEqual([]);
      } finally {
        await s.ctx.close();
      }
    });
  }
});
