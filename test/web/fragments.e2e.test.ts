import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { markdownText } from "../../src/corpus/import/markdown-text.ts";
import { pdfToText } from "../../src/text/pdf.ts";
import { FRAGMENT_SET } from "../fixtures/fragment-set.ts";
import { type CollectionsServer, fillCollection, startCollectionsServer } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { signedUp } from "./app-session.ts";
import { launchChromium, PHONE, canRun as run } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/**
 * The fragment set (a wrapped memo, a hyphenated PDF, Markdown with code and a table) in a
 * collection, asked with no model in the web app: each marker's popover quotes a whole sentence
 * of the source and says it backs the sentence it stands after, which is whole too.
 */
let t: CollectionsServer, browser: Browser;
const SENTENCES = FRAGMENT_SET.flatMap((d) => d.sentences);
beforeAll(async () => {
  if (!run) return;
  mkdirSync(SHOTS, { recursive: true });
  t = await startCollectionsServer();
  const docs = [];
  for (const d of FRAGMENT_SET) {
    const text = d.file.endsWith(".pdf")
      ? (await pdfToText(d.bytes as Uint8Array)).text
      : d.file.endsWith(".md")
        ? markdownText(d.bytes as string).text
        : (d.bytes as string);
    docs.push({ id: d.file, title: d.apart[0]!, text });
  }
  await fillCollection(t.store, "lab", docs);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!run) return;
  await browser?.close();
  await t?.stop();
});

describe.if(run)("answers on sentences in Chromium", () => {
  for (const [name, options] of [
    ["1280", { viewport: { width: 1280, height: 900 } }],
    ["390", PHONE],
  ] as const) {
    test(`${name} px: each marker stands after a whole sentence, and its popover quotes a whole sentence of the PDF`, async () => {
      const me = await signedUp(browser, t.srv.url, `fragments-${name}@example.com`, options);
      const { page } = me;
      await page.getByLabel("Your question").fill(FRAGMENT_SET[1]!.question);
      await page.getByRole("button", { name: "Ask" }).click();
      await page.getByText(/Done in/).waitFor();
      const cites = page.locator(".answer a.cite");
      expect(await cites.count()).toBeGreaterThan(0);
      const claims = await page.locator(".answer span.claim").evaluateAll((spans) =>
        spans.map((s) => {
          const c = s.cloneNode(true) as HTMLElement;
          for (const a of c.querySelectorAll("a.cite")) a.remove();
          return c.textContent!.trim();
        }),
      );
      // The lead-in ("Here is what the sources say:") is the writer's own line.
      for (const c of claims.filter((c) => !c.endsWith(":"))) expect(SENTENCES).toContain(c);
      for (let i = 0; i < (await cites.count()); i++) {
        await cites.nth(i).focus();
        const tip = page.getByRole("tooltip");
        await tip.waitFor();
        expect(SENTENCES).toContain((await tip.locator("blockquote").textContent())!);
        expect(await tip.textContent()).toContain("· backs this sentence");
        if (i === 0) await page.screenshot({ path: join(SHOTS, `fragments-${name}.png`), fullPage: true });
      }
      expect(me.seen).toEqual([]);
      await me.ctx.close();
    });
  }
});
