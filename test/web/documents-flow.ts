import { expect } from "bun:test";
import type { Page } from "playwright-core";

/** A's private collection in the browser tests. */
export const TEAM = "team-notes";

/** A's notes: what A's runs answer from (and B's must never show). */
export const A_FILES: Record<string, { title: string; text: string }> = {
  "q3-review.md": {
    title: "Q3 review of the pouch cells",
    text: "# Q3 review of the pouch cells\n\nSolid-state batteries are limited by dendrites that grow through the ceramic electrolyte at high current.\n\nOur Q3 cells shorted after 40 cycles once lithium filaments crossed grain boundaries in the separator.",
  },
  "interfaces.txt": {
    title: "interfaces.txt",
    text: "The interface between lithium metal and the solid electrolyte has a high resistance that limits solid-state batteries. Voids form at the interface during stripping.",
  },
};

/** A file whose name is markup: it must show as these characters, never as an element. */
export const MARKUP_NAME = "<img src=x onerror=alert(1)>.txt";
/** A file that claims a format it is not: it fails alone, with its reason. */
const BAD = { name: "scan.pdf", text: "this is plain text, not a PDF" };

const file = (name: string, text: string, mimeType = "text/plain") => ({ name, mimeType, buffer: Buffer.from(text) });

/** Every status each upload row has shown, in order (a MutationObserver misses none). */
async function recordStatuses(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    (window as unknown as { uploadStatuses: typeof seen }).uploadStatuses = seen;
    const note = (li: Element) => {
      const name = li.querySelector(".name")?.textContent ?? "";
      const s = li.getAttribute("data-status") ?? "";
      const list = seen[name] ?? [];
      seen[name] = list;
      if (list.at(-1) !== s) list.push(s);
    };
    new MutationObserver((records) => {
      for (const r of records) {
        const li = r.target instanceof Element ? r.target.closest("li.upload") : null;
        if (li) note(li);
        for (const n of r.addedNodes) if (n instanceof Element && n.matches("li.upload")) note(n);
      }
    }).observe(document.querySelector("ul.uploads")!, { subtree: true, childList: true, attributes: true });
  });
}

/** A file dropped on the drop zone, as a drag from the desktop delivers it. */
async function drop(page: Page, name: string, text: string): Promise<void> {
  await page.evaluate(
    ([n, t]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t!], n!, { type: "text/plain" }));
      const zone = document.querySelector(".dropzone")!;
      for (const type of ["dragenter", "dragover", "drop"])
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    [name, text],
  );
}

/**
 * On A's collection page: the two notes by the file picker, the markup-named file by a drop,
 * the bad file by the picker; waits until each row settles and checks what each showed.
 */
export async function uploadAll(page: Page): Promise<void> {
  await recordStatuses(page);
  const input = page.locator('.dropzone input[type="file"]');
  await input.setInputFiles(Object.entries(A_FILES).map(([name, f]) => file(name, f.text)));
  await drop(page, MARKUP_NAME, "Notes on pressure: stack pressure above 5 MPa slowed dendrite growth.");
  await input.setInputFiles([file(BAD.name, BAD.text, "application/pdf")]);
  // Each file settles into the documents' table, its row keyed by doc_id; its upload line then
  // leaves the list, so no file is listed twice.
  const listed = (name: string) => page.locator(`table.documents tr[data-doc=${JSON.stringify(name)}]`);
  for (const name of [...Object.keys(A_FILES), MARKUP_NAME]) await listed(name).locator(".status-ready").waitFor();
  await listed(BAD.name).locator(".status-failed").waitFor();
  const reason = (await listed(BAD.name).locator(".doc-status").textContent())!;
  expect(reason).toMatch(/^Failed: \S/);
  await page.waitForFunction(() => document.querySelectorAll("li.upload").length === 0, undefined, { timeout: 5000 });
  const statuses = await page.evaluate(() => (window as unknown as { uploadStatuses: object }).uploadStatuses);
  for (const name of [...Object.keys(A_FILES), MARKUP_NAME, BAD.name]) {
    const s = (statuses as Record<string, string[]>)[name]!;
    // Sent (the bar filled by the bytes), then followed in the list until it settled.
    expect([name, s.includes("uploading"), s.at(-1)]).toEqual([name, true, name === BAD.name ? "failed" : "ready"]);
  }
  // The markup-named file is text on the page: its name and title shown, no element made of it.
  await page.locator("table.documents").getByText(MARKUP_NAME).first().waitFor();
  expect(await page.locator("main img").count()).toBe(0);
  // The failed file is listed with its reason; the others are ready and link to their pages.
  expect(await page.locator("table.documents tr", { hasText: BAD.name }).textContent()).toContain("Failed");
  expect(await page.locator("table.documents a").count()).toBe(3);
}
