import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
// Under CI a missing browser is a failure (.ci/run installs it); on a laptop the suite says why it skips.
export const canRun = existsSync(CHROMIUM) || !!process.env.CI;
if (!canRun) console.warn(`e2e: skipped — ${CHROMIUM} is missing (apt-get install -y chromium)`);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-quic",
      "--disable-sync",
    ],
  });
}

/** A phone: 390×844 CSS pixels, touch, mobile viewport rules (the meta viewport applies). */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

/**
 * Every console error and uncaught page error, as text; a test expects none. Chromium logs each
 * 4xx/5xx answer to the page (a fetch or the favicon) as a console error too.
 */
export function watchConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") seen.push(`console error: ${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => seen.push(`page error: ${e.message}`));
  return seen;
}

/**
 * What keeps a page from being used on a phone: the page wider than the screen (sideways
 * scrolling), or a control (link, button, field, scroll box) lying partly off screen —
 * also one clipped inside a box that scrolls sideways, like a table's last column.
 */
export function phoneProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const width = window.innerWidth;
    const page = document.scrollingElement!.scrollWidth;
    if (width !== 390) out.push(`layout viewport is ${width} px wide, not 390 (the page was zoomed out to fit)`);
    if (page > width) out.push(`page is ${page} px wide on a ${width} px screen`);
    for (const el of document.querySelectorAll("a, button, input, textarea, select, summary, [tabindex]")) {
      if (el.classList.contains("skip")) continue; // the skip link is off screen until focused, by design
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -0.5 || r.right > width + 0.5) {
        const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40);
        out.push(`${el.tagName.toLowerCase()} "${name}" spans ${Math.round(r.left)}–${Math.round(r.right)} px`);
      }
    }
    return out;
  });
}
