import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { canRun, launchChromium, PHONE, phoneProblems, watchConsole } from "../web/browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "..", "web", "screenshots");

/**
 * /docs as a developer reads it, over HTTP and in Chromium at 1280 and 390 px: descriptions'
 * Markdown rendered (no raw backticks), each body's fields and an example, nothing that runs.
 */

let srv: TestServer;
let html = "";
beforeAll(async () => {
  srv = startTestServer();
  const res = await fetch(`${srv.url}/docs`);
  expect(res.headers.get("content-type")).toContain("text/html");
  html = await res.text();
});
afterAll(() => srv?.stop(100));

/** One operation's section, by its heading. */
const section = (heading: string) => {
  const at = html.indexOf(`<h2><code>${heading}</code></h2>`);
  expect(at).toBeGreaterThan(0);
  return html.slice(at, html.indexOf("</section>", at));
};
/** What the page shows as text: tags out, entities back. */
const shown = (s: string) =>
  s
    .replace(/<[^>]+>/g, "")
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, "&");

describe("/docs", () => {
  test("descriptions are rendered: code spans are <code>, no backtick is left on the page", () => {
    const query = section("POST /api/query");
    expect(query).toContain("<code>invalid_request</code>");
    expect(query).toContain("<code>quota_exceeded</code>");
    expect(shown(html)).not.toContain("`");
    expect(html).not.toMatch(/<script|https?:\/\/cdn|javascript:/i);
  });

  test("each body is shown: its fields, whether each is required, and an example", () => {
    const query = section("POST /api/query");
    expect(query).toContain("<h3>Request body</h3>");
    expect(shown(query)).toContain("querystringyesthe question");
    // The operation's own example, as JSON.
    expect(shown(query)).toContain('{\n  "query": "What limits the energy density of solid-state batteries?"\n}');
    // No example of its own: one made from the schema.
    const example = /Example:<\/p><pre><code>([^<]*)<\/code>/.exec(section("POST /api/console/collections"))?.[1];
    const made = JSON.parse(shown(example ?? "null"));
    expect(Object.keys(made)).toContain("name");
    expect(typeof made.name).toBe("string");
    // A multipart upload lists its fields, with no JSON example.
    const upload = section("POST /api/console/collections/{name}/documents");
    expect(upload).toContain("<code>multipart/form-data</code>");
    expect(upload).toContain("<td><code>files</code></td>");
    expect(upload).not.toContain("Example:");
    // Parameters say where they go.
    expect(shown(query)).toContain("Idempotency-Keyheader");
  });

  test.if(canRun)("in Chromium at 1280 and 390 px: code spans drawn as code, the page fits a phone", async () => {
    mkdirSync(SHOTS, { recursive: true });
    const browser = await launchChromium();
    try {
      for (const [size, options] of [
        ["1280", { viewport: { width: 1280, height: 900 } }],
        ["390", PHONE],
      ] as const) {
        const ctx = await browser.newContext(options);
        const page = await ctx.newPage();
        const seen = watchConsole(page);
        await page.goto(`${srv.url}/docs`);
        const codes = await page.locator("section").first().locator("li code").allTextContents();
        expect(codes).toContain("invalid_request");
        expect(await page.locator("body").textContent()).not.toContain("`");
        await page.locator("pre").first().waitFor();
        await page.screenshot({ path: join(SHOTS, `docs-${size}.png`) });
        if (size === "390") expect(await phoneProblems(page)).toEqual([]);
        expect(seen).toEqual([]);
        await ctx.close();
      }
    } finally {
      await browser.close();
    }
  });
});
