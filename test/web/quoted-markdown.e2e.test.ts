import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { type CollectionsServer, fillCollection, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { ask, signedUp } from "./app-session.ts";
import { launchChromium, canRun as run } from "./browser.ts";

useLongTimeout();

// A collection note whose sentences carry Markdown, quoted by the extractive writer (no model)
// and shown by the web app in Chromium: a link from the note must not become one there.
const PHISH =
  "Solid-state battery owners must [confirm their warranty here](https://evil.example/login) before the recall ends.";
const FORMATTED = "The solid-state battery recall covers **every cell** made before March, the `firmware` notes say.";

let t: CollectionsServer, browser: Browser;
beforeAll(async () => {
  if (!run) return;
  t = await startCollectionsServer();
  await fillCollection(t.store, "notes", [
    { id: "notes/recall.md", title: "Battery recall", text: `${PHISH}\n\n${FORMATTED}` },
  ]);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!run) return;
  await browser?.close();
  await t?.stop();
});

describe.if(run)("quoted source text in the web app", () => {
  test("a note's Markdown link and formatting show as its text: the only links are the markers", async () => {
    const me = await signedUp(browser, t.srv.url, "quoted@example.com");
    await ask(me.page, "solid-state battery recall warranty owners");
    const answer = me.page.locator(".answer");
    await answer.locator("a.cite").first().waitFor();
    expect(await answer.locator("a:not(.cite)").count()).toBe(0);
    expect(await answer.locator("strong, em, code").count()).toBe(0);
    const text = (await answer.textContent())!;
    expect(text).toContain(PHISH);
    expect(text).toContain(FORMATTED);
    expect(me.seen).toEqual([]);
    await me.ctx.close();
  });
});
