import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { WEB_PATHS } from "../../src/server/web-pages.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { launchChromium, canRun as run, watchConsole } from "./browser.ts";

useLongTimeout();

/**
 * The pages' policy is the header's: a `<meta>` policy covers only what that HTML does after
 * it is parsed, and cannot carry frame-ancestors. Every page the app answers carries the whole
 * policy in its header, and Chromium enforces that one.
 */
let srv: TestServer, browser: Browser | undefined;
beforeAll(async () => {
  srv = startTestServer({ engine: scriptedEngine() });
  if (run) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await srv?.stop(100);
});

const pages = WEB_PATHS.map((p) => p.replace(":id", "00000000-0000-0000-0000-000000000000").replace(":name", "notes"));
const directives = (policy: string | null): Map<string, string> =>
  new Map(
    (policy ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values.join(" ")]),
  );

test("every page's Content-Security-Policy header holds default-src, script-src and the rest", async () => {
  for (const path of pages) {
    const res = await fetch(srv.url + path);
    expect(res.status, path).toBe(200);
    const d = directives(res.headers.get("content-security-policy"));
    expect(d.get("default-src"), path).toBe("'self'");
    expect(d.get("script-src"), path).toBe("'self'");
    expect(d.get("style-src"), path).toBe("'self'");
    expect(d.get("connect-src"), path).toBe("'self'");
    expect(d.get("object-src"), path).toBe("'none'");
    expect(d.get("base-uri"), path).toBe("'none'");
    expect(d.get("form-action"), path).toBe("'self'");
    expect(d.get("frame-ancestors"), path).toBe("'none'");
    await res.text();
  }
});

describe.if(run)("the header's policy in Chromium", () => {
  test("every page loads under it, and an injected inline script is refused by the header's policy", async () => {
    const page = await browser!.newPage();
    try {
      for (const path of pages) {
        const errors = watchConsole(page);
        await page.goto(srv.url + path);
        await page.waitForSelector("main:not(:has(> p:only-child:text('Loading…')))");
        const seen = await page.evaluate(
          () =>
            new Promise<{ ran: boolean; policy: string; disposition: string }>((resolve) => {
              const w = window as unknown as { injected?: boolean };
              document.addEventListener(
                "securitypolicyviolation",
                (e) => resolve({ ran: !!w.injected, policy: e.originalPolicy, disposition: e.disposition }),
                { once: true },
              );
              const s = document.createElement("script");
              s.textContent = "window.injected = true";
              document.head.append(s);
              setTimeout(() => resolve({ ran: !!w.injected, policy: "", disposition: "" }), 2_000);
            }),
        );
        expect(seen.ran, path).toBe(false);
        expect(seen.disposition, path).toBe("enforce");
        // frame-ancestors can only come from a header: the enforced policy is the header's.
        expect(seen.policy, path).toContain("frame-ancestors 'none'");
        expect(seen.policy, path).toContain("script-src 'self'");
        page.removeAllListeners("console");
        page.removeAllListeners("pageerror");
        // The injected script's refusal is the one error expected.
        expect(
          errors.filter((e) => !/Content Security Policy/.test(e)),
          path,
        ).toEqual([]);
      }
    } finally {
      await page.close();
    }
  });
});
