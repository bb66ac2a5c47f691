import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { DOCUMENT_LIST_PAGE } from "../../src/contract/collections.ts";
import { type CollectionsServer, fillCollection, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { type AppSession, signedUp } from "./app-session.ts";
import { canRun, launchChromium } from "./browser.ts";

useLongTimeout();

/**
 * A collection longer than a page in Chromium: the table shows the first page, "More documents"
 * adds the next until the last, and no console error on the way.
 */
const TOTAL = DOCUMENT_LIST_PAGE + 30;
const id = (i: number) => `note-${String(i).padStart(4, "0")}.md`;

let t: CollectionsServer, browser: Browser, a: AppSession;
beforeAll(async () => {
  if (!canRun) return;
  t = await startCollectionsServer();
  await fillCollection(
    t.store,
    "archive",
    Array.from({ length: TOTAL }, (_, i) => ({ id: id(i), title: `Note ${i}`, text: `The text of note ${i}.` })),
  );
  browser = await launchChromium();
  a = await signedUp(browser, t.srv.url, "pages@example.com");
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await t?.stop();
});

describe.if(canRun)("a long collection's page in Chromium", () => {
  test("the first page, then More documents until every document is listed once", async () => {
    const p = a.page;
    await p.getByRole("link", { name: "Documents" }).click();
    await p.getByRole("link", { name: "archive" }).click();
    await p.getByRole("heading", { name: "archive" }).waitFor();
    const rows = p.locator("table.documents tbody tr");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(DOCUMENT_LIST_PAGE);
    await p.getByRole("button", { name: "More documents" }).click();
    await p.locator(`tr[data-doc="${id(TOTAL - 1)}"]`).waitFor();
    const ids = await p
      .locator("table.documents tbody tr")
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-doc")));
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => id(i)));
    expect(await p.getByRole("button", { name: "More documents" }).count()).toBe(0);
    expect(a.seen).toEqual([]);
  });
});
