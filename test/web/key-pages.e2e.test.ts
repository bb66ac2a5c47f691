import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { type AppSession, signedUp } from "./app-session.ts";
import { canRun, launchChromium } from "./browser.ts";

useLongTimeout();

/**
 * More keys than a page in Chromium (revoked ones stay listed and pile up): the table shows the
 * newest page, "More keys" adds the next until the last, and a revocation on a later page
 * redraws every page shown; no console error on the way.
 */
const PAGE = 100;
const TOTAL = PAGE + 30;
const name = (i: number) => `key-${String(i).padStart(3, "0")}`;

let srv: TestServer, browser: Browser, a: AppSession;
beforeAll(async () => {
  if (!canRun) return;
  srv = startTestServer({ engine: scriptedEngine() });
  browser = await launchChromium();
  a = await signedUp(browser, srv.url, "keys-pages@example.com");
  const account = (await srv.deps.store.accounts.byEmail("keys-pages@example.com"))!;
  // The oldest is still active (on the second page); the others were revoked.
  for (let i = 0; i < TOTAL; i++)
    await srv.deps.store.apiKeys.insert({
      id: crypto.randomUUID(),
      accountId: account.id,
      name: name(i),
      prefix: `rq-${String(i).padStart(9, "0")}`,
      keyHash: crypto.randomUUID(),
      status: i === 0 ? "active" : "revoked",
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
      lastUsedAt: null,
      revokedAt: i === 0 ? null : new Date(Date.UTC(2026, 10, 2)).toISOString(),
    });
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await srv?.stop(100);
});

describe.if(canRun)("a long keys list in Chromium", () => {
  test("the newest page, then More keys until every key is listed once; a revocation keeps the pages shown", async () => {
    const p = a.page;
    await p.getByRole("link", { name: "API keys" }).click();
    await p.getByRole("heading", { name: "Your keys" }).waitFor();
    const names = () =>
      p.locator("table tbody tr td:first-child").evaluateAll((tds) => tds.map((td) => td.textContent));
    const newestFirst = Array.from({ length: TOTAL }, (_, i) => name(TOTAL - 1 - i));
    expect(await names()).toEqual(newestFirst.slice(0, PAGE));
    await p.getByRole("button", { name: "More keys" }).click();
    await p.getByText(name(0), { exact: true }).waitFor();
    expect(await names()).toEqual(newestFirst);
    expect(await p.getByRole("button", { name: "More keys" }).count()).toBe(0);
    p.once("dialog", (d) => void d.accept());
    await p.getByRole("button", { name: `Revoke key ${name(0)}` }).click();
    await p.getByRole("button", { name: `Revoke key ${name(0)}` }).waitFor({ state: "detached" });
    expect(await names()).toEqual(newestFirst);
    expect(a.seen).toEqual([]);
  });
});
