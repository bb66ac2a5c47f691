import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { type CollectionsServer, fillCollection, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { type AppSession, ask, signedUp } from "./app-session.ts";
import { canRun, launchChromium, PHONE, phoneProblems } from "./browser.ts";
import { A_FILES, TEAM, uploadAll } from "./documents-flow.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/**
 * The Documents pages in Chromium against the real server and engine (offline: no model, the
 * web unreachable, so answers come from the collections): A makes a private collection,
 * uploads to it with a bar per file, asks, and follows a local source to the document's page;
 * B, signed in beside A, never sees any of it; every page fits a phone; no console error.
 */

let t: CollectionsServer, browser: Browser, a: AppSession, b: AppSession;
beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(SHOTS, { recursive: true });
  t = await startCollectionsServer();
  // A collection the operator shares: B's runs have something to answer from.
  await fillCollection(t.store, "handbook", [
    { id: "safety.md", title: "Lab safety", text: "Solid-state cells are charged in the fire cabinet only." },
  ]);
  browser = await launchChromium();
  a = await signedUp(browser, t.srv.url, "alice@example.com");
  b = await signedUp(browser, t.srv.url, "bob@example.com");
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await t?.stop();
});

const shot = (s: AppSession, name: string) => s.page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

describe.if(canRun)("the Documents pages in Chromium", () => {
  test("A creates a private collection; it is listed as A's, private, empty", async () => {
    const p = a.page;
    await p.getByRole("link", { name: "Documents" }).click();
    await p.getByRole("heading", { name: "Documents", exact: true }).waitFor();
    await p.getByText("None yet").waitFor();
    expect(await p.locator("table.collections").textContent()).toContain("handbook");
    await p.getByLabel("Collection name").fill(TEAM);
    await p.getByRole("button", { name: "Create collection" }).click();
    await p.getByRole("heading", { name: TEAM }).waitFor();
    expect(await p.locator("main").textContent()).toContain("Owner: you · Private · 0 documents · 0\u00a0B");
    // A name A already has is refused in words.
    await p.getByRole("link", { name: "Documents" }).first().click();
    await p.getByLabel("Collection name").fill(TEAM);
    await p.getByRole("button", { name: "Create collection" }).click();
    await p.getByText(`You already have a collection named ${TEAM}.`).waitFor();
    expect(a.seen).toEqual([]);
    await p.getByRole("link", { name: TEAM }).click();
    await p.getByRole("heading", { name: TEAM }).waitFor();
  });

  test("A uploads by the file picker and by a drop: each file settles into the table, listed once; a bad file fails with its reason", async () => {
    await uploadAll(a.page);
    // The counts above the list follow it: the failed file is not a document.
    await a.page.getByText("Owner: you · Private · 3 documents").waitFor();
    await shot(a, "documents-uploaded");
    expect(a.seen).toEqual([]);
  });

  test("A's answer cites an uploaded document; its link opens the document's page with the quote marked", async () => {
    const p = a.page;
    await ask(p, "What limits solid-state batteries?");
    const link = p.locator(`ol.sources a[href^="/documents/${TEAM}?doc="]`).first();
    await link.waitFor();
    const href = (await link.getAttribute("href"))!;
    expect(href).not.toContain("local:");
    const quote = new URLSearchParams(new URL(href, t.srv.url).hash.slice(1)).get("quote")!;
    await link.click();
    await p.locator("mark").waitFor();
    expect(await p.locator("main").textContent()).toContain(`Collection ${TEAM} · owner: you`);
    expect(quote.replace(/…$/, "")).toContain((await p.locator("mark").textContent())!.slice(0, 40));
    expect(await p.locator(".passage.quoted").count()).toBe(1);
    await shot(a, "document-quoted");
    expect(a.seen).toEqual([]);
  });

  test("B never sees A's private collection: not listed, not by its address, not in B's runs", async () => {
    const p = b.page;
    await p.getByRole("link", { name: "Documents" }).click();
    await p.getByText("handbook").first().waitFor();
    const text = (await p.locator("main").textContent())!;
    expect(text).not.toContain(TEAM);
    for (const f of Object.values(A_FILES)) expect(text).not.toContain(f.title);
    await p.goto(`${t.srv.url}/documents/${TEAM}?owner=${encodeURIComponent(a.email)}`);
    await p.getByRole("heading", { name: "Collection not found" }).waitFor();
    // A document's address: the page says only "not found"; the one console error is the API's 404.
    await p.goto(`${t.srv.url}/documents/${TEAM}?doc=q3-review.md&owner=${encodeURIComponent(a.email)}`);
    await p.getByRole("heading", { name: "Document not found" }).waitFor();
    expect(await p.locator("main").textContent()).not.toContain(A_FILES["q3-review.md"]!.title);
    expect(b.seen.splice(0).map((e) => /status of 404/.test(e))).toEqual([true]);
    await ask(p, "What limits solid-state batteries?");
    await p.locator("#src-S1").waitFor();
    const page = (await p.locator("main").textContent())!;
    expect(page).toContain("handbook");
    expect(page).not.toContain(TEAM);
    for (const f of Object.values(A_FILES)) expect(page).not.toContain(f.title);
    expect(b.seen).toEqual([]);
  });

  test("A shares the collection: B reads it, read-only; A makes it private again: B sees nothing; A renames and deletes it", async () => {
    const p = a.page;
    p.on("dialog", (d) => void d.accept());
    await p.getByRole("link", { name: "Documents" }).first().click();
    await p.getByRole("heading", { name: "Documents", exact: true }).waitFor();
    await p.getByRole("link", { name: TEAM }).click();
    await p.getByRole("button", { name: "Make shared" }).click();
    await p.getByText("Owner: you · Shared · 3 documents").waitFor();

    const q = b.page;
    await q.getByRole("link", { name: "Documents" }).first().click();
    await q.getByRole("heading", { name: "Documents", exact: true }).waitFor();
    await q.getByRole("link", { name: TEAM }).click();
    await q.getByText("Owner: alice@example.com · Shared (read-only) · 3 documents").waitFor();
    await q.getByText("you can read it, not change it").waitFor();
    await q.locator("table.documents").waitFor();
    expect(await q.locator(".dropzone, .settings, table.documents button").count()).toBe(0);
    await q.getByRole("link", { name: A_FILES["q3-review.md"]!.title }).click();
    await q.getByText("owner: alice@example.com").waitFor();
    expect(q.url()).toContain(`owner=${encodeURIComponent(a.email)}`);

    await p.getByRole("button", { name: "Make private" }).click();
    await p.getByText("Owner: you · Private · 3 documents").waitFor();
    await q.getByRole("link", { name: "Documents" }).first().click();
    await q.getByText("handbook").first().waitFor();
    expect(await q.locator("main").textContent()).not.toContain(TEAM);

    await p.getByLabel("New name").fill("team-archive");
    await p.getByRole("button", { name: "Rename" }).click();
    await p.getByRole("heading", { name: "team-archive" }).waitFor();
    expect(new URL(p.url()).pathname).toBe("/documents/team-archive");
    await p.getByRole("button", { name: "Delete collection" }).click();
    await p.getByRole("heading", { name: "Documents", exact: true }).waitFor();
    await p.getByText("None yet").waitFor();
    // A's earlier run cited it: its timeline now holds a placeholder, with no link.
    await p.getByRole("link", { name: "Usage" }).click();
    await p.locator('a[href^="/runs/"]').last().click();
    await p.locator("li.withheld").first().waitFor();
    expect(await p.locator(`li.withheld a, ol.sources a[href*="${TEAM}"]`).count()).toBe(0);
    expect(await p.locator("main").textContent()).not.toContain(A_FILES["q3-review.md"]!.title);
    expect([a.seen, b.seen]).toEqual([[], []]);
  });

  test("at 390 px the Documents pages fit: list, collection with uploads, document", async () => {
    const s = await signedUp(browser, t.srv.url, "someone.with.a.rather.long.address@research.example.com", PHONE);
    try {
      await s.page.getByRole("link", { name: "Documents" }).tap();
      await s.page.getByLabel("Collection name").fill("a-rather-long-collection-name-for-a-phone-screen");
      await s.page.getByRole("button", { name: "Create collection" }).tap();
      await s.page.getByRole("heading", { name: "a-rather-long-collection-name-for-a-phone-screen" }).waitFor();
      await uploadAll(s.page);
      expect(await phoneProblems(s.page)).toEqual([]);
      await shot(s, "phone-collection");
      await s.page.locator("table.documents a").first().tap();
      await s.page.locator(".passage").first().waitFor();
      expect(await phoneProblems(s.page)).toEqual([]);
      await shot(s, "phone-document");
      await s.page.getByRole("link", { name: "Documents" }).first().tap();
      await s.page.locator("table.collections").first().waitFor();
      expect(await phoneProblems(s.page)).toEqual([]);
      await shot(s, "phone-documents");
      expect(s.seen).toEqual([]);
    } finally {
      await s.ctx.close();
    }
  });
});
