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
import { launchChromium, PHONE, canRun as run, watchConsole } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/**
 * The note under an extractive answer (docs/decisions/0141-an-extractive-answer-says-it-quotes.md):
 * where its quotes come from, never "claims backed"; and an answer over notes that hold nothing
 * on the question says so, with no source (docs/decisions/0140-an-answer-when-no-source-is-on-the-question.md).
 * A real offline server with no model, at 1280 px and on a phone.
 */

const ON_TOPIC = "What limits solid-state batteries?";
const OFF_TOPIC = "What limits the range of electric scooters?";
const NOTHING = "The sources found hold nothing on this question: none shares enough of its words to be quoted.";

let t: CollectionsServer, browser: Browser;
beforeAll(async () => {
  if (!run) return;
  mkdirSync(SHOTS, { recursive: true });
  t = await startCollectionsServer();
  await fillCollection(t.store, "notes", BATTERY_NOTES);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!run) return;
  await browser?.close();
  await t?.stop();
});

async function ask(page: Page, question: string): Promise<string> {
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Ask" }).click();
  const note = page.getByLabel("Verification");
  await note.waitFor();
  return (await note.textContent()) ?? "";
}

describe.if(run)("the note under an extractive answer in Chromium", () => {
  test("1280 px: quotes from N sources; nothing quoted says so; the run's timeline the same", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchConsole(page);
    await page.goto(`${t.srv.url}/signup`);
    await page.getByLabel("Email").fill("notes@example.com");
    await page.getByLabel("Password").fill("a long password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Research" }).waitFor();

    const quoted = await ask(page, ON_TOPIC);
    const n = await page.locator("ol.sources > li").count();
    expect(n).toBeGreaterThanOrEqual(2);
    expect(quoted).toContain(`Quoted verbatim from ${n} sources; no model wrote this answer`);
    expect(quoted).not.toContain("backed");
    await page.screenshot({ path: join(SHOTS, "extractive-note-1280.png"), fullPage: true });

    await page.reload();
    await page.getByRole("heading", { name: "Research" }).waitFor();
    expect(await ask(page, OFF_TOPIC)).toBe("Nothing quoted: no source found is on the question");
    expect(await page.locator(".answer").textContent()).toBe(NOTHING);
    expect(await page.locator("ol.sources > li").count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Sources" }).count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, "extractive-nothing-1280.png"), fullPage: true });

    await page.getByRole("link", { name: "Usage" }).click();
    await page.locator('a[href^="/runs/"]').first().click();
    await page.getByRole("heading", { name: "Run timeline" }).waitFor();
    expect(await page.getByLabel("Verification").textContent()).toBe(
      "Nothing quoted: no source found is on the question",
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  test("390 px: the same note on a phone", async () => {
    const ctx = await browser.newContext(PHONE);
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await page.goto(`${t.srv.url}/signup`);
    await page.getByLabel("Email").fill("phone@example.com");
    await page.getByLabel("Password").fill("a long password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Research" }).waitFor();
    expect(await ask(page, ON_TOPIC)).toContain("Quoted verbatim from");
    await page.screenshot({ path: join(SHOTS, "extractive-note-390.png"), fullPage: true });
    await page.reload();
    await page.getByRole("heading", { name: "Research" }).waitFor();
    expect(await ask(page, OFF_TOPIC)).toBe("Nothing quoted: no source found is on the question");
    await page.screenshot({ path: join(SHOTS, "extractive-nothing-390.png"), fullPage: true });
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
